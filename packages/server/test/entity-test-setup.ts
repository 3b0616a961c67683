import { FORBIDDEN_MESSAGE } from '@dossierbase/core';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { EnvironmentRow } from '../src/db/schema';
import { buildEnvironment } from './factories';
import type { TestApp, TestClient } from './test-app';

export interface AdminSetup {
  environment: EnvironmentRow;
  /** Environment admin of `environment`. */
  admin: TestClient;
  /** Ordinary member of `environment`. */
  member: TestClient;
  memberId: number;
  /** Environment admin of another environment. */
  outsider: TestClient;
  otherEnvironment: EnvironmentRow;
}

/** An environment with an admin and an ordinary member, and the admin of another environment. */
export async function adminSetup(t: TestApp): Promise<AdminSetup> {
  const [admin, member, outsider] = await Promise.all([t.signIn(), t.signIn(), t.signIn()]);
  const environment = await buildEnvironment(t.db, {
    members: [
      { user: admin.user, credentials: ['environment-admin'] },
      { user: member.user, credentials: ['export'] },
    ],
  });
  const otherEnvironment = await buildEnvironment(t.db, {
    members: [{ user: outsider.user, credentials: ['environment-admin'] }],
  });
  return {
    environment,
    admin: admin.client,
    member: member.client,
    memberId: member.user.id,
    outsider: outsider.client,
    otherEnvironment,
  };
}

export const put = (client: TestClient, url: string, payload: unknown) =>
  client.request({ method: 'PUT', url, payload: payload as InjectOptions['payload'] });

/** 403 with the general message (the member), or 404 without data (another tenant's admin). */
export function expectRefused(response: LightMyRequestResponse, what: string) {
  expect([403, 404], `${what}: ${response.body}`).toContain(response.statusCode);
  if (response.statusCode === 403) expect(response.json(), what).toEqual({ message: FORBIDDEN_MESSAGE });
}

export function expectForbidden(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(403);
  expect(response.json(), what).toEqual({ message: FORBIDDEN_MESSAGE });
}

/** 404 with nothing but 'Not found': what an unknown id and another tenant's id both answer. */
export function expectNotFound(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(404);
  expect(response.json(), what).toEqual({ message: 'Not found' });
}

/** The ordinary member lacks a permission (403); another tenant's admin is told nothing exists (404). */
export const refusalOf = (label: 'member' | 'outsider') =>
  label === 'member' ? expectForbidden : expectNotFound;
