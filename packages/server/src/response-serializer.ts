import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

/**
 * Answers are serialised by Fastify's compiled serialiser (fast-json-stringify) from the JSON Schema of
 * each route's zod response schema: it writes the declared fields only, so a field a schema leaves out
 * never leaves the server, and it costs no zod parse per answer in production.
 *
 * With `validate` (tests), each answer is also checked by fastify-type-provider-zod's serialiser (a zod
 * encode: a missing field or a wrong type fails the request with 500); a field the schema does not
 * declare fails too (instead of being dropped unseen), and what the compiled serialiser wrote must equal
 * the answer, so the tests prove the production path as well.
 */
export function responseSerializerCompiler(validate: boolean): FastifySerializerCompiler<ZodType> {
  return (route) => {
    const jsonSchema = z.toJSONSchema(route.schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'any',
    });
    const stringify = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
    if (!validate) return stringify;
    const checked = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
    const fail = (problem: string, a: string, b: string) => {
      throw new Error(
        `${route.method} ${route.url} ${route.httpStatus}: ${problem}: ${a.slice(0, 2000)} / ${b.slice(0, 2000)}`,
      );
    };
    return (data) => {
      const expected = checked(data);
      const given = JSON.stringify(data);
      // a field the schema does not declare would be dropped silently: the handler or the schema is wrong
      if (!isDeepStrictEqual(JSON.parse(given), JSON.parse(expected)))
        fail('the answer differs from its schema', given, expected);
      const written = stringify(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected)))
        fail('the compiled serialiser differs', written, expected);
      return written;
    };
  };
}
