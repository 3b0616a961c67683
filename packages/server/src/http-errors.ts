import { errorAnswerSchema, FORBIDDEN_MESSAGE } from '@dossierbase/core';
import { type ZodType, z } from 'zod';

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

/** A route's answers: its success schemas and the one error answer for every 4xx and 5xx. */
export const answers = <T extends Record<number, ZodType>>(success: T) => ({
  ...success,
  '4xx': errorAnswerSchema,
  '5xx': errorAnswerSchema,
});

/** A 200 of raw bytes (a file, an image): sent as they are, never serialised. */
export const bytesAnswer = z.any().meta({ description: 'the bytes, with their own content type' });
