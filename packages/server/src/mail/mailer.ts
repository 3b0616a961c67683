import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP when SMTP_URL is set; otherwise each mail becomes an .eml file in DATA_DIR/outbox. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: config.mailFrom, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const outbox = path.join(config.dataDir, 'outbox');
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      mkdirSync(outbox, { recursive: true });
      writeFileSync(
        path.join(outbox, `${Date.now()}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`),
        info.message as Buffer,
      );
    },
  };
}
