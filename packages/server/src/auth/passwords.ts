import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id; the package exports it as a const enum, which isolated modules cannot read.
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against a fixed hash keeps the timing of unknown usernames close to that of known ones.
let decoyHash: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<void> {
  decoyHash ??= hashPassword('decoy-password-for-timing');
  await verifyPassword(await decoyHash, password);
}
