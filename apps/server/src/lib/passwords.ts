/** argon2id for passwords, PINs and machine keys; parameters per OWASP's argon2id guidance. */
import argon2 from 'argon2';

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashSecret = (secret: string) => argon2.hash(secret, OPTIONS);

export async function verifySecret(hash: string | null | undefined, secret: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, secret);
  } catch {
    return false;
  }
}

/** A fixed hash to verify against when the user does not exist, so timing does not reveal it. */
let dummyHash: Promise<string> | undefined;
export const burnVerify = async (secret: string) => {
  dummyHash ??= hashSecret('not-a-real-password');
  await verifySecret(await dummyHash, secret);
};
