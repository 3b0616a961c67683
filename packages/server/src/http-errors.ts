import { FORBIDDEN_MESSAGE } from '@dossierbase/core';

/** An error whose status and JSON body go to the client as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${statusCode}`);
  }
}

export const badRequest = (errors: Record<string, string>) => new HttpError(400, { errors });
export const unauthorized = (message = 'Not signed in', extra: Record<string, unknown> = {}) =>
  new HttpError(401, { message, ...extra });
export const forbidden = (message: string = FORBIDDEN_MESSAGE) => new HttpError(403, { message });
export const notFound = (message = 'Not found') => new HttpError(404, { message });
export const tooManyRequests = (message: string) => new HttpError(429, { message });
