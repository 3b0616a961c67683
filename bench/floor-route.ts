// The floor of bench/floor.ts: a Fastify app with one route that runs the statements of list (a),
// captured from the server (FLOOR_STATEMENTS, a JSON file of { text, values }), as named prepared
// statements on a pg pool set up as the server's, and answers their rows as JSON. Nothing else: no
// sign-in, no parameters, no policy, no SQL building, no answer shaping.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const statements = JSON.parse(readFileSync(String(process.env.FLOOR_STATEMENTS), 'utf8')) as {
  text: string;
  values: unknown[];
}[];
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 20,
  options: `-c search_path=${process.env.DATABASE_SCHEMA} -c plan_cache_mode=force_custom_plan -c jit=off`,
});
const app = Fastify({ logger: false });
app.get('/floor', async () => {
  const results = [];
  for (const [n, { text, values }] of statements.entries())
    results.push((await pool.query({ name: `floor_${n}`, text, values })).rows);
  return { results };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
