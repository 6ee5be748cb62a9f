// Imported first by run.ts: the service's metrics object is made when a bench's modules are
// imported, before any bench runs, and reads this then. A bench's output is its table; the
// EMF lines of thousands of operations would bury it (and a simulation's report is compared whole).
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
