import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './free-port';

export interface TestOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on a free local port. Its development login form
 * accepts any login; the login becomes the account id and, with @example.test appended when it has
 * no @, the e-mail claim.
 */
export async function startOidcProvider(redirectUris: string[]): Promise<TestOidc> {
  const clientId = 'dossierbase-test';
  const clientSecret = 'dossierbase-test-secret';
  const holder: { server?: Server } = {};
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    // Google and Azure put the e-mail claim in the ID token of the code flow, and the server reads
    // it from there; oidc-provider by default keeps scope claims for the userinfo endpoint only.
    conformIdTokenClaims: false,
    async findAccount(_ctx, id) {
      const email = id.includes('@') ? id : `${id}@example.test`;
      return {
        accountId: id,
        async claims() {
          return { sub: id, email, email_verified: true, name: `Test ${id}` };
        },
      };
    },
    // Tests sign in without a consent screen for openid, email and profile.
    loadExistingGrant: async (ctx) => {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  provider.proxy = true;
  holder.server = provider.listen(port);
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => holder.server!.close(() => resolve())),
  };
}
