import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io } from '#test/simulation/determinism.ts';

/**
 * A merchant's webhook endpoint: takes its time to answer (on the simulated clock, while the
 * sender waits), acknowledges a body with a 2xx or answers 500 (down now and then), and keeps
 * what it saw: each body's acknowledgements, and each time two attempts of one body were under way
 * at once, which the service promises never happens.
 *
 * What it does with an attempt depends on the attempt alone (its body, and how many of that body
 * came before), not on the order in which concurrent attempts reach it over real sockets; and its
 * answers leave one at a time, in the order of the clock, so no two senders read theirs at once.
 */
export interface Receiver {
  url: string;
  /** Body -> 2xx answers it gave. */
  acknowledged: Map<string, number>;
  /** Bodies of which a second attempt came while one was under way. */
  overlapping: string[];
  attempts: number;
  refused: number;
  /** The chance an attempt is answered 500. */
  failing: number;
  stop(): Promise<void>;
}

interface Held {
  due: number;
  order: string;
  answer: () => void;
}

export async function startReceiver(seed: number): Promise<Receiver> {
  const underWay = new Map<string, number>();
  const seen = new Map<string, number>();
  const held: Held[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const receiver: Receiver = {
    url: '',
    acknowledged: new Map(),
    overlapping: [],
    attempts: 0,
    refused: 0,
    failing: 0.2,
    stop: async () => {},
  };
  /** Two numbers in [0, 1) of this attempt: whether the endpoint is down, and how long it takes. */
  const draws = (body: string, nth: number) => {
    const digest = createHash('sha256').update(`${seed}:${nth}:${body}`).digest();
    return {
      order: digest.toString('hex'),
      down: digest.readUInt32LE(0) / 2 ** 32,
      slow: digest.readUInt32LE(4) / 2 ** 32,
    };
  };
  /** The next answer, on its own tick of the clock. */
  const next = () => {
    if (timer || held.length === 0) return;
    held.sort((a, b) => a.due - b.due || (a.order < b.order ? -1 : 1));
    const first = held[0] as Held;
    timer = setTimeout(
      () => {
        timer = undefined;
        held.shift();
        first.answer();
        next();
      },
      Math.max(0, first.due - Date.now()),
    );
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      receiver.attempts++;
      const nth = (seen.get(body) ?? 0) + 1;
      seen.set(body, nth);
      const open = (underWay.get(body) ?? 0) + 1;
      underWay.set(body, open);
      if (open > 1) receiver.overlapping.push(body);
      const { order, down, slow } = draws(body, nth);
      // Its answer waits on the clock: the attempt is held there, not as real I/O.
      io.parked++;
      io.wake();
      held.push({
        due: Date.now() + 20 + Math.floor(slow * 1_980),
        order,
        answer: () => answer(response, body, down < receiver.failing),
      });
      next();
    });
  });
  const answer = (response: ServerResponse, body: string, down: boolean) => {
    io.parked--;
    underWay.set(body, (underWay.get(body) ?? 1) - 1);
    if (down) {
      receiver.refused++;
      response.writeHead(500).end('down');
    } else {
      receiver.acknowledged.set(body, (receiver.acknowledged.get(body) ?? 0) + 1);
      response.writeHead(200).end('ok');
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/webhooks`;
  receiver.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
