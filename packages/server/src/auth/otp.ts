import { generate, generateSecret, verify } from 'otplib';

export { generateSecret as generateOtpSecret };

export async function generateOtpCode(secret: string): Promise<string> {
  return generate({ secret });
}

export async function verifyOtpCode(secret: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  // One step of clock drift either way, as authenticator apps expect.
  const result = await verify({ secret, token: code, epochTolerance: 30 });
  return result.valid;
}
