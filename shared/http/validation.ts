import type { output, ZodMiniType as ZodType } from 'zod/mini';
import type { $ZodIssue } from 'zod/v4/core';
import { type FieldError, ValidationFailed } from '#shared/errors/request.ts';

/**
 * Parses input with a zod schema, or throws ValidationFailed with one `{field, rule, message}` per
 * problem: the interface's 422 `validation_error` body. Rules are short stable words integrations
 * can switch on (`required`, `in`, `uuid`, `min`, `max`, `type`, ...); messages are for people.
 */
export function parseInput<S extends ZodType>(schema: S, input: unknown): output<S> {
  const illFormed = illFormedText(input);
  if (illFormed.length > 0) throw new ValidationFailed(illFormed);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationFailed(result.error.issues.map((issue) => toFieldError(issue, input)));
}

export function toFieldError(issue: $ZodIssue, input: unknown): FieldError {
  const field = issue.path.map(String).join('.') || 'body';
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined)
        return { field, rule: 'required', message: `The ${field} field is required.` };
      return { field, rule: 'type', message: `The ${field} field must be of type ${issue.expected}.` };
    case 'invalid_value':
      // A missing field of fixed values is missing, not a wrong value.
      if (valueAt(input, issue.path) === undefined)
        return { field, rule: 'required', message: `The ${field} field is required.` };
      return {
        field,
        rule: 'in',
        message: `The ${field} field must be one of: ${issue.values.map(String).join(', ')}.`,
      };
    case 'invalid_format': {
      if (issue.format === 'regex') {
        // A schema may say what the pattern means ("must be +225 followed by 10 digits").
        const custom = !issue.message.startsWith('Invalid');
        return {
          field,
          rule: 'format',
          message: custom ? `The ${field} field ${issue.message}.` : `The ${field} field format is invalid.`,
        };
      }
      const described = issue.format === 'uuid' ? 'a valid UUID' : `a valid ${issue.format}`;
      return { field, rule: issue.format, message: `The ${field} field must be ${described}.` };
    }
    case 'too_small': {
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      return { field, rule: 'min', message: `The ${field} field must be at least ${issue.minimum}${unit}.` };
    }
    case 'too_big': {
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      return {
        field,
        rule: 'max',
        message: `The ${field} field must not be greater than ${issue.maximum}${unit}.`,
      };
    }
    case 'not_multiple_of':
      return { field, rule: 'multiple_of', message: `The ${field} field ${issue.message}.` };
    case 'custom':
      return { field, rule: String(issue.params?.rule ?? 'invalid'), message: issue.message };
    default:
      return { field, rule: 'invalid', message: `The ${field} field is invalid.` };
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

// In a /u expression a surrogate pair is one code point, so only a surrogate alone matches.
const loneSurrogate = /\p{Surrogate}/u;

/**
 * Every string of the input, at any depth, must be well-formed Unicode. JSON lets a client send a
 * lone surrogate (`"\\ud800"`); kept, it would be stored, compared and echoed as text that no
 * encoder can write back faithfully, and two different inputs could end up as the same reference.
 */
export function illFormedText(input: unknown, path: string[] = []): FieldError[] {
  if (typeof input === 'string') {
    if (!loneSurrogate.test(input)) return [];
    const field = path.join('.') || 'body';
    return [{ field, rule: 'format', message: `The ${field} field is not well-formed Unicode text.` }];
  }
  if (input === null || typeof input !== 'object') return [];
  return Object.entries(input).flatMap(([key, value]) => illFormedText(value, [...path, key]));
}
