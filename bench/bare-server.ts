import http from "node:http";

/** The baseline: Node's bare `http` answering a fixed JSON body, in its own process like the gateway. */
const body = process.env.BARE_BODY ?? "{}";
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
