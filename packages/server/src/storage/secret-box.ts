import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets that must stay usable (webhook signing secrets) with AES-256-GCM under a key
 * derived from AKWE_SECRET. The key is derived on first use, so commands that never touch such a
 * secret do not need AKWE_SECRET. Changing AKWE_SECRET makes stored secrets unreadable.
 */
export class SecretBox {
  private key: Buffer | undefined;

  constructor(private readonly masterSecret: () => string) {}

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.derivedKey(), iv);
    const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), encrypted.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, encrypted] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || encrypted === undefined) throw new Error('sealed secret has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.derivedKey(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64url')), decipher.final()]).toString('utf8');
  }

  private derivedKey(): Buffer {
    this.key ??= Buffer.from(hkdfSync('sha256', this.masterSecret(), 'akwe', 'secret-box/v1', 32));
    return this.key;
  }
}
