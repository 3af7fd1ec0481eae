// The error classes of tunesmith: real `Error` subclasses, so `instanceof`, `name`, `cause` and
// stack traces work as in any hand-written SDK. The wasm side builds them through `makeError`.

/** Base class of every error the client throws or rejects with. */
export class TunesmithError extends Error {
  constructor(message, props = {}) {
    super(message, props.cause === undefined ? undefined : { cause: props.cause });
    this.name = "TunesmithError";
    this.kind = props.kind ?? "unknown";
    this.code = props.code ?? null;
    this.status = props.status ?? null;
    this.requestId = props.requestId ?? null;
    this.retryable = props.retryable ?? false;
    this.attempts = props.attempts ?? 0;
  }
}

/** A request (or option) broke a rule of the service; nothing was sent. */
export class ValidationError extends TunesmithError {
  constructor(message, props = {}) {
    super(message, { kind: "validation", ...props });
    this.name = "ValidationError";
    this.field = props.field ?? null;
    this.rule = props.rule ?? null;
  }
}

/** The service answered with an error code; `kind` says what it means for this endpoint family. */
export class ApiError extends TunesmithError {
  constructor(message, props = {}) {
    super(message, props);
    this.name = "ApiError";
    this.retryAfterMs = props.retryAfterMs ?? null;
  }
}

/** The request did not get an answer: connection refused, DNS, CORS, offline. */
export class NetworkError extends TunesmithError {
  constructor(message, props = {}) {
    super(message, { kind: "network", ...props });
    this.name = "NetworkError";
  }
}

/** An attempt (or a waiter's deadline) ran out of time. */
export class TimeoutError extends TunesmithError {
  constructor(message, props = {}) {
    super(message, { kind: "timeout", ...props });
    this.name = "TimeoutError";
  }
}

/** The caller's AbortSignal fired. */
export class AbortError extends TunesmithError {
  constructor(message, props = {}) {
    super(message, { kind: "aborted", ...props });
    this.name = "AbortError";
  }
}

/** A task reached a failure state; `taskStatus`, `errorCode` and `errorMessage` say which and why. */
export class TaskFailedError extends TunesmithError {
  constructor(message, props = {}) {
    super(message, { kind: "task_failed", ...props });
    this.name = "TaskFailedError";
    this.taskId = props.taskId ?? null;
    this.taskStatus = props.taskStatus ?? null;
    this.errorCode = props.errorCode ?? null;
    this.errorMessage = props.errorMessage ?? null;
    this.record = props.record ?? null;
  }
}

const CLASSES = { TunesmithError, ValidationError, ApiError, NetworkError, TimeoutError, AbortError, TaskFailedError };

/** One factory for the wasm side: the class by name, with its fields. */
export function makeError(className, message, props) {
  const Class = CLASSES[className] ?? TunesmithError;
  return new Class(message, props);
}
