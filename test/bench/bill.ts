import type { PaidPayment } from '#test/bench/paid-payment.ts';

/**
 * AWS list prices, us-east-1, on-demand, past any free tier (the published price pages of API
 * Gateway, Lambda, DynamoDB and SQS). Other regions differ by a few percent.
 */
export const listPrices = {
  region: 'us-east-1',
  /** REST API, first 333 million requests a month. */
  apiGatewayRestPerMillion: 3.5,
  lambdaRequestsPerMillion: 0.2,
  /** arm64, first 7.5 billion GB-seconds a month. */
  lambdaArmPerGbSecond: 0.000_013_333_4,
  dynamoDbWritePerMillionUnits: 0.625,
  dynamoDbReadPerMillionUnits: 0.125,
  sqsStandardPerMillionRequests: 0.4,
};

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The memory every function has (infra/service-function.ts). */
export const lambdaMemoryGb = 0.5;

export interface BillLine {
  service: string;
  usage: string;
  perMillionPayments: number;
  perMillionPolls: number;
}

export interface Bill {
  region: string;
  lines: BillLine[];
  totalPerMillionPayments: number;
  totalPerMillionPolls: number;
}

const cents = (usd: number) => Math.round(usd * 100) / 100;

/**
 * The cost of a million paid payments, from what one measured: requests, units and the median
 * duration of each step, billed per started millisecond. Durations are those of this machine
 * against DynamoDB Local, a stand-in for Lambda's against DynamoDB: the same order, not the same
 * figure.
 */
export function billOf(payment: PaidPayment): Bill {
  const p = listPrices;
  const payingSteps = payment.steps.filter((step) => !step.extra);
  const poll = payment.steps.find((step) => step.extra);
  const apiRequests = payingSteps.reduce((sum, step) => sum + step.apiRequests, 0);
  const invocations = new Set(payingSteps.map((step) => step.lambda)).size;
  const billedMs = payingSteps.reduce((sum, step) => sum + Math.ceil(step.medianMs), 0);
  const sqsRequests = payingSteps.reduce((sum, step) => sum + step.sqsRequests, 0);
  const gbSeconds = (ms: number) => (ms / 1000) * lambdaMemoryGb;
  const pollMs = Math.ceil(poll?.medianMs ?? 0);
  const lines: BillLine[] = [
    {
      service: 'API Gateway (REST)',
      usage: `${apiRequests} requests`,
      perMillionPayments: apiRequests * p.apiGatewayRestPerMillion,
      perMillionPolls: p.apiGatewayRestPerMillion,
    },
    {
      service: 'Lambda (arm64, 512 MB)',
      usage: `${invocations} invocations, ${billedMs} ms billed`,
      perMillionPayments:
        invocations * p.lambdaRequestsPerMillion + gbSeconds(billedMs) * p.lambdaArmPerGbSecond * 1e6,
      perMillionPolls: p.lambdaRequestsPerMillion + gbSeconds(pollMs) * p.lambdaArmPerGbSecond * 1e6,
    },
    {
      service: 'DynamoDB (on-demand)',
      usage: `${round2(payment.writeUnits)} write units, ${round2(payment.readUnits)} read units`,
      perMillionPayments:
        payment.writeUnits * p.dynamoDbWritePerMillionUnits +
        payment.readUnits * p.dynamoDbReadPerMillionUnits,
      perMillionPolls: (poll?.readUnits ?? 0) * p.dynamoDbReadPerMillionUnits,
    },
    {
      service: 'SQS (standard)',
      usage: `${sqsRequests} requests`,
      perMillionPayments: sqsRequests * p.sqsStandardPerMillionRequests,
      perMillionPolls: 0,
    },
  ].map((line) => ({
    ...line,
    perMillionPayments: cents(line.perMillionPayments),
    perMillionPolls: cents(line.perMillionPolls),
  }));
  const total = (key: 'perMillionPayments' | 'perMillionPolls') =>
    cents(lines.reduce((sum, line) => sum + line[key], 0));
  lines.push({
    service: 'total',
    usage: '',
    perMillionPayments: total('perMillionPayments'),
    perMillionPolls: total('perMillionPolls'),
  });
  return {
    region: p.region,
    lines,
    totalPerMillionPayments: total('perMillionPayments'),
    totalPerMillionPolls: total('perMillionPolls'),
  };
}
