// The kinds and rules are generated from protocol/ into the package's types.
import type { ErrorKind, ServiceErrorKind, ValidationRule } from "./tunesmith.js";

/** Base class of every error the client throws or rejects with. */
export class TunesmithError extends Error {
  readonly name: string;
  readonly kind: ErrorKind;
  /** The envelope `code` the service answered, when it answered. */
  readonly code: number | null;
  /** The HTTP status, when there was a response. */
  readonly status: number | null;
  /** The `X-Request-Id` of the response, for support requests. */
  readonly requestId: string | null;
  /** Whether the failure is of a kind that may be retried (queries: network, timeout, rate limit, maintenance, 500; creates: rate limit and maintenance only). */
  readonly retryable: boolean;
  /** How many attempts were made (0 when nothing was sent). */
  readonly attempts: number;
  readonly cause?: unknown;
}

/** A request or option broke a rule of the service; nothing was sent. */
export class ValidationError extends TunesmithError {
  readonly kind: "validation";
  /** The field that broke the rule, e.g. `styleWeight`. */
  readonly field: string;
  /** The rule it broke (see `ValidationRule`). */
  readonly rule: ValidationRule;
}

/**
 * The service answered with an error code. `kind` is read per endpoint family: 429 means insufficient
 * credits on the generation endpoints and a rate limit on the cover endpoints; 405 and 430 are rate
 * limits; 455 is maintenance. A refusal of the companion server (`tunesmith/server`) is read by the
 * cause it names: its 429s (`rate_limited`, `too_many_requests`, `too_many_tasks`) are `rate_limited`.
 */
export class ApiError extends TunesmithError {
  readonly kind: ServiceErrorKind;
  readonly code: number;
  /** The wait the answer's `Retry-After` (or `Retry-After-Ms`) asked for, in milliseconds, else null. */
  readonly retryAfterMs: number | null;
}

/** No answer: connection refused, DNS, CORS, offline. `cause` holds the runtime's error. */
export class NetworkError extends TunesmithError {
  readonly kind: "network";
}

/** An attempt, or a waiter's deadline, ran out of time. */
export class TimeoutError extends TunesmithError {
  readonly kind: "timeout";
}

/** The caller's AbortSignal fired. */
export class AbortError extends TunesmithError {
  readonly kind: "aborted";
}

/** A task reached a failure state. */
export class TaskFailedError extends TunesmithError {
  readonly kind: "task_failed";
  readonly taskId: string | null;
  /** The family's failure status, e.g. `SENSITIVE_WORD_ERROR`, `GENERATE_WAV_FAILED`, or `3` for covers. */
  readonly taskStatus: string | number | null;
  readonly errorCode: number | null;
  readonly errorMessage: string | null;
  /** The final record, as the status query returned it. */
  readonly record: unknown;
}
