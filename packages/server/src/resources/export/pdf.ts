import { existsSync } from 'node:fs';
import type { DossierDocument } from './data';

// One dossier as a PDF, drawn by pdfkit on the server (no browser): the entity, the title, and a
// label and value per field. A Unicode font of the system is used when there is one (DejaVu, as
// Debian ships it), so that every language's letters print; otherwise pdfkit's Helvetica.

const FONTS = [
  ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'],
  [
    '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  ],
];
const font = FONTS.find((pair) => pair.every((file) => existsSync(file)));
const [REGULAR, BOLD] = font ?? ['Helvetica', 'Helvetica-Bold'];

/** The PDF's bytes. pdfkit is loaded on first use: it is about 17 MB of the server's memory. */
export async function dossierPdf(doc: DossierDocument): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: 'A4', margin: 50, info: { Title: doc.title, Subject: doc.entity } });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const width = pdf.page.width - 100;
  pdf.font(REGULAR).fontSize(10).fillColor('#555555').text(doc.entity);
  pdf.font(BOLD).fontSize(18).fillColor('#000000').text(doc.title).moveDown(0.8);
  const labelWidth = Math.round(width * 0.32);
  for (const row of doc.rows) {
    const top = pdf.y;
    pdf
      .font(BOLD)
      .fontSize(10)
      .text(row.label, 50, top, { width: labelWidth - 10 });
    const afterLabel = pdf.y;
    pdf.font(REGULAR).text(row.text || '–', 50 + labelWidth, top, { width: width - labelWidth });
    pdf.y = Math.max(afterLabel, pdf.y) + 4;
    pdf
      .moveTo(50, pdf.y - 2)
      .lineTo(50 + width, pdf.y - 2)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke();
    pdf.x = 50;
  }
  pdf.end();
  return done;
}
