import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { UserAlreadyExists } from '#shared/errors/service-providers.ts';

/**
 * User: a person who signs in with their phone number and may own businesses. A phone number
 * belongs to one user at most.
 *
 * Keys:
 * - pk = USER#<userId>, sk = PROFILE: the user.
 * - pk = PHONE#<phone>, sk = USER: the claim on the phone number, written with the user under
 *   `attribute_not_exists`, so two onboardings of the same number cannot both succeed.
 * - pk = USER#<userId>, sk = MEMBER_OF#<businessId> (OWNS#<businessId> before roles): the
 *   businesses the user belongs to, see membership.ts.
 * - pk = USER#<userId>, sk = SESSION#<idHash>: the user's dashboard sessions, see dashboard-session.ts.
 *
 * Access patterns and cost (items well under 1 KB):
 * - find by phone: GetItem on the claim then on the profile, 1 RCU (strongly consistent, so a user
 *   just created is found).
 * - create: part of a TransactWriteItems, 2 puts (4 WCU), 2 more per business it belongs to.
 */
export interface User {
  id: string;
  phone: string;
  firstName: string;
  lastName: string;
  email?: string | undefined;
  createdAt: string;
}

const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' });
const phoneClaimKey = (phone: string) => ({ pk: `PHONE#${phone}`, sk: 'USER' });

export function newUser(input: Omit<User, 'id' | 'createdAt'>): User {
  return { id: randomUUID(), ...input, createdAt: new Date().toISOString() };
}

/** The writes that create a user; the phone's claim fails with 409 `user_already_exists`. */
export function userWrites(user: User): GuardedWrite[] {
  const table = tableName();
  return [
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...phoneClaimKey(user.phone), entity: 'phone_claim', userId: user.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new UserAlreadyExists(),
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...userKey(user.id), entity: 'user', ...user },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new UserAlreadyExists(),
    },
  ];
}

export async function createUser(input: Omit<User, 'id' | 'createdAt'>): Promise<User> {
  const user = newUser(input);
  await transactWrite(userWrites(user));
  return user;
}

export async function findUserByPhone(phone: string): Promise<User | undefined> {
  const { Item: claim } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: phoneClaimKey(phone), ConsistentRead: true }),
  );
  if (!claim) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: userKey(claim.userId as string), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    id: Item.id as string,
    phone: Item.phone as string,
    firstName: Item.firstName as string,
    lastName: Item.lastName as string,
    email: Item.email as string | undefined,
    createdAt: Item.createdAt as string,
  };
}
