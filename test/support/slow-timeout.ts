// Service, e2e and conformance tests start processes and servers: they get a longer per-test budget.
jest.setTimeout(Number(process.env.SLOW_TEST_TIMEOUT_MS ?? 90000));
