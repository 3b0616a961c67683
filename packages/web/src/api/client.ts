import {
  CSRF_HEADER,
  CSRF_VALUE,
  FORBIDDEN_MESSAGE,
  PASSWORD_UPDATE_REQUIRED,
  TWO_FACTOR_REQUIRED,
} from '@dossierbase/core';

export const API_BASE = '/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
    this.name = 'ApiError';
  }

  get fieldErrors(): Record<string, string> | null {
    const errors = (this.body as { errors?: unknown } | null)?.errors;
    return this.status === 400 && errors && typeof errors === 'object'
      ? (errors as Record<string, string>)
      : null;
  }

  get serverMessage(): string | null {
    const message = (this.body as { message?: unknown } | null)?.message;
    if (typeof message === 'string') return message;
    return this.status === 403 ? FORBIDDEN_MESSAGE : null;
  }
}

let passwordUpdateRequired: () => void = () => {};

/**
 * What to do when the server refuses a call until a handed-out password (key login) is replaced;
 * the session module shows the change form.
 */
export function whenPasswordUpdateRequired(listener: () => void): void {
  passwordUpdateRequired = listener;
}

let twoFactorRequired: () => void = () => {};

/**
 * What to do when an environment refuses its calls until the user turns on two-factor sign-in (its
 * policy); the session module sends them to the enrolment.
 */
export function whenTwoFactorRequired(listener: () => void): void {
  twoFactorRequired = listener;
}

/** An array is sent as the key repeated (type=a&type=b). */
type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (Array.isArray(value)) for (const one of value) params.append(key, String(one));
    else if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (method !== 'GET') headers[CSRF_HEADER] = CSRF_VALUE;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await fetch(buildUrl(path, options.query), {
    method,
    headers,
    credentials: 'include',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });

  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, data);
    if (error.status === 403 && error.serverMessage === PASSWORD_UPDATE_REQUIRED) passwordUpdateRequired();
    if (error.status === 403 && error.serverMessage === TWO_FACTOR_REQUIRED) twoFactorRequired();
    throw error;
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal) =>
    apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    apiRequest<T>(path, { method: 'POST', body: body ?? {}, headers }),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PATCH', body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body: body ?? {} }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
