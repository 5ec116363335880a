/**
 * Errors of the assistant, each with the HTTP status and OpenAI-style `type`/`code` an edge
 * answers with, so a client library built for chat-completion APIs reports them sensibly.
 */

/** OpenAI-style error categories. */
export type AssistantErrorType = 'invalid_request_error' | 'not_found_error' | 'permission_error' | 'upstream_error' | 'server_error';

/** An assistant failure with its HTTP status. */
export class AssistantError extends Error {
  constructor(
    readonly status: number,
    readonly type: AssistantErrorType,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AssistantError';
  }
}

/** 404: the assistant is switched off. */
export function assistantDisabled(): AssistantError {
  return new AssistantError(
    404,
    'not_found_error',
    'assistant_disabled',
    'The assistant is disabled: set GRAPHDB_ASSISTANT_ENABLED=true (assistant.enabled) to use it.',
  );
}

/** 404: the request names a model the provider does not serve. */
export function modelNotFound(model: string, available: readonly string[]): AssistantError {
  const hint = available.length === 0 ? '' : ` (available: ${available.join(', ')})`;
  return new AssistantError(404, 'not_found_error', 'model_not_found', `The model '${model}' does not exist${hint}.`);
}

/** 400: the request body is not acceptable. */
export function invalidRequest(message: string): AssistantError {
  return new AssistantError(400, 'invalid_request_error', 'invalid_request', message);
}

/** 503: the provider cannot be reached or loaded. */
export function providerUnavailable(message: string, cause?: unknown): AssistantError {
  return new AssistantError(503, 'upstream_error', 'provider_unavailable', message, { cause });
}

/** 502: the provider answered with an error or something unreadable. */
export function providerFailed(message: string, cause?: unknown): AssistantError {
  return new AssistantError(502, 'upstream_error', 'provider_error', message, { cause });
}

/** 504: a model call took longer than `assistant.timeout`. */
export function providerTimedOut(ms: number): AssistantError {
  return new AssistantError(504, 'upstream_error', 'provider_timeout', `The model did not answer within ${ms} ms (assistant.timeout).`);
}
