import * as client from 'openid-client';
import type { Config, OidcProviderConfig } from '../config';

export type OidcProviderName = 'google' | 'azure';

export interface OidcIdentity {
  email: string;
  name: string | null;
}

/** Sign-in through an OpenID Connect provider (Google, Azure), authorization code flow with PKCE. */
export class OidcService {
  private readonly discovered = new Map<OidcProviderName, Promise<client.Configuration>>();

  constructor(private readonly config: Config) {}

  enabled(provider: OidcProviderName): boolean {
    return this.settings(provider) !== null;
  }

  callbackUrl(provider: OidcProviderName): string {
    return `${this.config.publicUrl}/api/connect/${provider}/check`;
  }

  async authorizationUrl(provider: OidcProviderName, state: string, nonce: string, codeVerifier: string) {
    const configuration = await this.configuration(provider);
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl(provider),
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  async identify(
    provider: OidcProviderName,
    currentUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcIdentity> {
    const configuration = await this.configuration(provider);
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
    });
    const claims = tokens.claims();
    // Accounts are matched by e-mail, so an address the provider says it has not verified is refused.
    if (claims?.email_verified === false) throw new Error('The provider has not verified the e-mail address');
    const email = claims?.email ?? claims?.preferred_username;
    if (typeof email !== 'string' || !email.includes('@'))
      throw new Error('The provider did not give an e-mail address');
    return { email: email.toLowerCase(), name: typeof claims?.name === 'string' ? claims.name : null };
  }

  private settings(provider: OidcProviderName): OidcProviderConfig | null {
    return provider === 'google' ? this.config.google : this.config.azure;
  }

  private configuration(provider: OidcProviderName): Promise<client.Configuration> {
    const settings = this.settings(provider);
    if (!settings) throw new Error(`${provider} sign-in is not configured`);
    let found = this.discovered.get(provider);
    if (!found) {
      const issuer = new URL(settings.issuer);
      found = client.discovery(
        issuer,
        settings.clientId,
        settings.clientSecret,
        undefined,
        // Plain http is only accepted for a provider on this machine (the test provider).
        issuer.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(issuer.hostname)
          ? { execute: [client.allowInsecureRequests] }
          : undefined,
      );
      found.catch(() => this.discovered.delete(provider));
      this.discovered.set(provider, found);
    }
    return found;
  }
}

export const randomState = client.randomState;
export const randomNonce = client.randomNonce;
export const randomPKCECodeVerifier = client.randomPKCECodeVerifier;
