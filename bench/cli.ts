// What the database benchmarks share on their command line: whole-number options and the server
// they create their throwaway database on (TEST_DATABASE_URL).
import process from 'node:process';

/** The option's value as a whole number of at least 1, or exit 2 naming it. */
export function positive(name: string, raw: string | undefined): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`--${name} must be a whole number of at least 1, got '${raw}'\n`);
    process.exit(2);
  }
  return value;
}

/** Exits 2 unless TEST_DATABASE_URL names the PostgreSQL server to create the bench database on. */
export function requireTestDatabaseServer(): void {
  if (!process.env.TEST_DATABASE_URL) {
    process.stderr.write(
      'TEST_DATABASE_URL is not set: the benchmark needs a PostgreSQL server to create its database on\n',
    );
    process.exit(2);
  }
}
