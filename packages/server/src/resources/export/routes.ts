import { dossierIdParamSchema, idParamSchema } from '@dossierbase/core';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, currentUserIn } from '../../auth/current-user';
import { answers, badRequest, bytesAnswer } from '../../http-errors';
import { authorize, canExportAny, canShowDossiers } from '../../policy/dossier';
import { type EntityScope, openEntityScope } from '../../policy/entity';
import { openDossier } from '../content-dossier/read-model';
import { orderedListQuery, positiveId } from '../content-dossier-list/service';
import { csvStream } from './csv';
import {
  authorizeExport,
  dossierDocument,
  EXPORT_KINDS,
  EXPORT_PAGE,
  type ExportKind,
  type ExportRow,
  exportFields,
  exportFileName,
  exportFormatter,
  exportRows,
  listExportPages,
} from './data';
import { dossierDocx } from './docx';
import { documentLabels } from './labels';
import { dossierPdf } from './pdf';

// Exports (spec doc 3 sections 2, 4, 5, 6 and 9): the fields an export can hold, one dossier as CSV,
// PDF or Word, and the CSV of a selection or of a whole list with its filters, streamed page by page.
// GET: an export changes nothing, and the browser downloads it as any file.

const tags = ['export'];

const many = <T extends z.ZodType>(one: T, max: number) =>
  z
    .union([one, z.array(one).max(max)])
    .transform((value) => (Array.isArray(value) ? value : [value]) as z.output<T>[])
    .optional();
const options = {
  /** display item ids of the fields to export (default: every field the reader may see) */
  fields: many(idParamSchema, 500),
  /** keep the HTML of rich text (CSV) */
  keepHtml: z.enum(['0', '1']).optional(),
  /** language of a document's labels (PDF, Word) */
  lang: z.string().max(10).optional(),
};
const listExportQuery = z
  .object({
    defDossier: z.string().describe('entity id (required)'),
    environment: z.string().optional(),
    /** the selected dossiers; without them, the whole list with the list call's filters and sort */
    ids: many(dossierIdParamSchema, 1000),
    ...options,
  })
  .catchall(z.union([z.string(), z.array(z.string())]));

const fieldsAnswer = z.object({ results: z.array(z.object({ id: z.number(), name: z.string() })) });

/** The list call's parameters of a whole-list export, without its own and the page's. */
function listParams(query: Record<string, unknown>) {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (['ids', 'fields', 'keepHtml', 'lang', 'page', 'limit'].includes(key) || key.endsWith('_aggregate'))
      continue;
    params[key] = value;
  }
  return params;
}

/**
 * The rows of `ids` in pages, each page read while the one before is being written (the database's
 * time and the formatting overlap).
 */
async function* chunks(read: (ids: number[]) => Promise<ExportRow[]>, ids: number[]) {
  const page = (start: number) => {
    if (start >= ids.length) return null;
    const rows = read(ids.slice(start, start + EXPORT_PAGE));
    rows.catch(() => undefined); // a reader that stops early leaves the prefetched page unread
    return rows;
  };
  let next = page(0);
  for (let start = 0; next; start += EXPORT_PAGE) {
    const current = await next;
    next = page(start + EXPORT_PAGE);
    yield current;
  }
}

function sendFile(reply: FastifyReply, scope: EntityScope, kind: ExportKind, type: string) {
  return reply
    .type(type)
    .header('Content-Disposition', contentDisposition(exportFileName(scope.entity, kind)))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'no-store');
}

export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/contentdossier/export/fields',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: z.object({ defDossier: idParamSchema }),
        tags,
        response: answers({ 200: fieldsAnswer }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const scope = await openEntityScope(db, user, request.query.defDossier);
      authorize(canShowDossiers(scope) && canExportAny(scope));
      const fields = await exportFields(db, scope);
      return { results: fields.map((f) => ({ id: f.id, name: f.name })) };
    },
  );

  app.get(
    '/contentdossier/export/csv',
    {
      config: { access: 'signedIn' },
      schema: { querystring: listExportQuery, tags, response: answers({ 200: bytesAnswer }) },
    },
    async (request, reply) => {
      const query = request.query;
      const defDossier = positiveId(query.defDossier);
      if (!defDossier) throw badRequest({ defDossier: 'This is a required field' });
      const environmentId = query.environment === undefined ? null : positiveId(query.environment);
      const user = await currentUserIn(request, environmentId);
      const scope = await openEntityScope(db, user, defDossier, environmentId);
      authorizeExport(scope, 'csv');
      const fields = await exportFields(db, scope, query.fields);
      const formatter = await exportFormatter(db, scope, fields);
      const read = (ids: number[]) => exportRows(db, scope, fields, formatter, ids);
      let pages: AsyncIterable<ExportRow[]>;
      let total: number;
      if (query.ids) {
        pages = chunks(read, query.ids);
        total = query.ids.length;
      } else {
        // the filters are checked (400) and the first page read before a byte is sent
        const params = { ...listParams(query as Record<string, unknown>), defDossier: String(defDossier) };
        const { ordered, count } = await orderedListQuery(db, user, params);
        const streamed = await listExportPages(db, scope, fields, formatter, ordered, count);
        if (streamed) ({ total, pages } = streamed);
        else {
          const ids = (await ordered.select('content_dossier.id').execute()).map((row) => Number(row.id));
          total = ids.length;
          pages = chunks(read, ids);
        }
      }
      return sendFile(reply, scope, 'csv', 'text/csv; charset=utf-8')
        .header('X-Total-Count', String(total))
        .send(csvStream(fields, formatter, pages, query.keepHtml === '1'));
    },
  );

  app.get(
    '/contentdossier/:id/export/:kind',
    {
      config: { access: 'signedIn' },
      schema: {
        params: z.object({ id: dossierIdParamSchema, kind: z.enum(EXPORT_KINDS) }),
        querystring: z.object(options),
        tags,
        response: answers({ 200: bytesAnswer }),
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.id, 'show');
      const { kind } = request.params;
      authorizeExport(scope, kind);
      const fields = await exportFields(db, scope, request.query.fields);
      const formatter = await exportFormatter(db, scope, fields);
      const rows = await exportRows(db, scope, fields, formatter, [Number(dossier.id)]);
      if (kind === 'csv')
        return sendFile(reply, scope, kind, 'text/csv; charset=utf-8')
          .header('X-Total-Count', '1')
          .send(
            csvStream(
              fields,
              formatter,
              chunks(async () => rows, [Number(dossier.id)]),
              request.query.keepHtml === '1',
            ),
          );
      const document = dossierDocument(scope, fields, formatter, rows[0], documentLabels(request.query.lang));
      if (kind === 'pdf')
        return sendFile(reply, scope, kind, 'application/pdf').send(await dossierPdf(document));
      return sendFile(
        reply,
        scope,
        kind,
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ).send(await dossierDocx(document));
    },
  );
};
