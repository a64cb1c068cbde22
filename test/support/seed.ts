/**
 * Set up before every test file: `FUZZ_SEED` fixes fast-check's seed for
 * every property and sample of the run (by default each draws its own), to
 * replay a failure or to check that a reach assertion (a property's count of
 * the cases it is about) holds whatever the seed: run the tests under a few.
 */
import fc from "fast-check";

if (process.env.FUZZ_SEED !== undefined)
	fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED) });
