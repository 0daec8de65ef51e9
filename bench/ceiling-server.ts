/** The ceiling (bench/ceiling-app.ts) in its own process, for `npm run bench`. */
import { buildCeilingApp } from './ceiling-app';

const app = buildCeilingApp(process.env.BENCH_SECRET!);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
