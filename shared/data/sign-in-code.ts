import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { Conflict } from '#shared/errors/request.ts';

/**
 * Sign-in code: the one-time code a person asks for on the dashboard with their phone, and the
 * sign-in attempt it belongs to (the browser holds the attempt's random id in a cookie, never the
 * phone). Its limits are items of their own, claimed in the same transaction as the code, so a
 * code is never written past a limit, whatever runs at the same time.
 *
 * Keys:
 * - pk = SIGNIN#<attemptId>, sk = CODE: the attempt: phone, salt, the code's salted SHA-256, the
 *   tries made, its status (pending → verified → used, or pending → used), `ttl` for clean-up.
 * - pk = SIGNINLIMIT#PHONE#<phone>, sk = SLOT#<0..2>: one of the phone's three slots, each holding
 *   until when it is taken (epoch ms). A code takes a free slot for 15 minutes: at most three codes
 *   in any 15 minutes, not merely per clock window.
 * - pk = SIGNINLIMIT#ADDRESS#<ip>, sk = HOUR#<epoch hour>: codes asked from one address this hour.
 * - pk = SIGNINLIMIT#STAGE, sk = HOUR#<epoch hour>: codes sent by the whole stage this hour (the
 *   cap against SMS pumping; one hot item, written at most the cap's number of times an hour).
 *
 * Access patterns and cost (items well under 1 KB):
 * - ask for a code: TransactWriteItems of 4 writes (code, phone slot, address and stage counters),
 *   8 WCU; a taken slot makes the transaction fail and the next slot is tried (at most 3 tries).
 * - try a code: one conditional UpdateItem that counts the try and returns the attempt, 1 WCU.
 * - mark verified or used: conditional UpdateItem, 1 WCU (or part of the sign-up's transaction).
 * - read the attempt (sign-up page): GetItem, strongly consistent, 1 RCU.
 */
export type SignInCodeStatus = 'pending' | 'verified' | 'used';

export interface SignInCode {
  attemptId: string;
  phone: string;
  /** Random per code, so equal codes never hash alike and a table of 10^6 hashes serves nothing. */
  salt: string;
  codeHash: string;
  tries: number;
  status: SignInCodeStatus;
  createdAt: string;
  /** When the code stops being accepted (5 minutes); a verified attempt is good for sign-up until `signUpBy`. */
  expiresAt: string;
  signUpBy?: string | undefined;
}

/** Why a code was not written: the limit whose condition failed. */
export type SignInLimit = 'phone' | 'address' | 'stage';

/** A limit's claim failed: no code was written (nor any other claim of the same transaction). */
export class SignInLimitReached extends Conflict {
  constructor(readonly limit: SignInLimit) {
    super(`Sign-in code limit reached: ${limit}`);
  }
}

export const codeLifetimeMs = 5 * 60_000;
/** How long after a verified code the sign-up form is accepted. */
export const signUpWindowMs = 30 * 60_000;
export const maxCodeTries = 5;
export const codesPerPhone = 3;
export const phoneWindowMs = 15 * 60_000;
const hourMs = 3_600_000;

const codeKey = (attemptId: string) => ({ pk: `SIGNIN#${attemptId}`, sk: 'CODE' });
const epochSeconds = (ms: number) => Math.ceil(ms / 1000);

export interface CodeLimits {
  /** The phone's slot to take (0 to codesPerPhone - 1). */
  slot: number;
  /**
   * Whose slots: sign-in codes (`SIGNINLIMIT#PHONE#…`, the default) or a transfer's step-up codes
   * (`STEPUPLIMIT#PHONE#…`), so confirming transfers never uses up the phone's sign-in codes.
   */
  slotsOf?: 'sign-in' | 'step-up';
  address: string;
  perAddressPerHour: number;
  perStagePerHour: number;
}

/** The code and its three claims, for one transaction: any claim past its limit fails it all. */
export function newSignInCodeWrites(code: SignInCode, limits: CodeLimits, now: Date): GuardedWrite[] {
  const table = tableName();
  const at = now.getTime();
  const hour = Math.floor(at / hourMs);
  const hourTtl = epochSeconds((hour + 2) * hourMs);
  const counter = (pk: string, max: number, limit: SignInLimit): GuardedWrite => ({
    write: {
      Update: {
        TableName: table,
        Key: { pk, sk: `HOUR#${hour}` },
        UpdateExpression: 'ADD n :one SET #ttl = :ttl, entity = :entity',
        ConditionExpression: 'attribute_not_exists(n) OR n < :max',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':ttl': hourTtl, ':entity': 'sign_in_limit' },
      },
    },
    onConditionFailed: () => new SignInLimitReached(limit),
  });
  return [
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...codeKey(code.attemptId),
            entity: 'sign_in_code',
            ...code,
            ttl: epochSeconds(at + signUpWindowMs + phoneWindowMs),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      write: {
        Update: {
          TableName: table,
          Key: {
            pk: `${limits.slotsOf === 'step-up' ? 'STEPUPLIMIT' : 'SIGNINLIMIT'}#PHONE#${code.phone}`,
            sk: `SLOT#${limits.slot}`,
          },
          UpdateExpression: 'SET #until = :until, #ttl = :ttl, entity = :entity',
          ConditionExpression: 'attribute_not_exists(#until) OR #until <= :now',
          ExpressionAttributeNames: { '#until': 'until', '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':until': at + phoneWindowMs,
            ':now': at,
            ':ttl': epochSeconds(at + phoneWindowMs) + 60,
            ':entity': 'sign_in_limit',
          },
        },
      },
      onConditionFailed: () => new SignInLimitReached('phone'),
    },
    counter(`SIGNINLIMIT#ADDRESS#${limits.address}`, limits.perAddressPerHour, 'address'),
    counter('SIGNINLIMIT#STAGE', limits.perStagePerHour, 'stage'),
  ];
}

/**
 * Counts one try and returns the attempt, in one conditional write, before the code is compared:
 * a try is counted whether it turns out right or wrong, so guesses sent in parallel cannot pass
 * the count, and the sixth try is refused whatever code it carries. Undefined when the attempt is
 * unknown, used, expired or out of tries.
 */
export async function countTry(attemptId: string, now: Date): Promise<SignInCode | undefined> {
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: codeKey(attemptId),
        UpdateExpression: 'ADD tries :one',
        ConditionExpression: '#status = :pending AND tries < :max AND expiresAt > :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':pending': 'pending',
          ':max': maxCodeTries,
          ':now': now.toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? toSignInCode(Attributes) : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/**
 * The code's single use: pending → `to`. Fails (Conflict) when another request used it first.
 * Verified (the phone is new) leaves the sign-up form `signUpWindowMs` to be sent.
 */
export function settleCodeWrite(attemptId: string, to: 'verified' | 'used', now: Date): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: codeKey(attemptId),
        UpdateExpression: `SET #status = :to${to === 'verified' ? ', signUpBy = :by' : ''}`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':to': to,
          ':pending': 'pending',
          ...(to === 'verified' ? { ':by': new Date(now.getTime() + signUpWindowMs).toISOString() } : {}),
        },
      },
    },
    onConditionFailed: () => new Conflict('The sign-in code was already used'),
  };
}

/** The sign-up's use of a verified attempt, in the sign-up's own transaction: once, and in time. */
export function useVerifiedAttemptWrite(attemptId: string, now: Date): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: codeKey(attemptId),
        UpdateExpression: 'SET #status = :used',
        ConditionExpression: '#status = :verified AND signUpBy > :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':used': 'used', ':verified': 'verified', ':now': now.toISOString() },
      },
    },
    onConditionFailed: () => new Conflict('The sign-in attempt was already used or has expired'),
  };
}

export async function getSignInCode(attemptId: string): Promise<SignInCode | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: codeKey(attemptId), ConsistentRead: true }),
  );
  return Item ? toSignInCode(Item) : undefined;
}

function toSignInCode(item: Record<string, unknown>): SignInCode {
  return {
    attemptId: item.attemptId as string,
    phone: item.phone as string,
    salt: item.salt as string,
    codeHash: item.codeHash as string,
    tries: item.tries as number,
    status: item.status as SignInCodeStatus,
    createdAt: item.createdAt as string,
    expiresAt: item.expiresAt as string,
    signUpBy: item.signUpBy as string | undefined,
  };
}
