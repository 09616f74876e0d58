// The official MCP TypeScript SDK's client against a running docsd (run by
// mcp_flow_test.cpp with a JSON spec: url, token, strangerToken, revokedToken,
// privateProject, publicProject, pageId). Exits non-zero at the first failed check.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, ListResourcesResultSchema } from '@modelcontextprotocol/sdk/types.js';

const spec = JSON.parse(process.argv[2]);

async function connect(token) {
  const client = new Client({ name: 'docsd-sdk-test', version: '1.0.0' });
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

const text = (result) => result.content.map((part) => part.text).join('\n');

async function waitFor(check, what) {
  const deadline = Date.now() + 60000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// The owner: initialize, every tool.
const { client, transport } = await connect(spec.token);
assert.equal(client.getServerVersion().name, 'docsd');
assert.ok(transport.sessionId, 'a session id');
assert.ok(client.getServerCapabilities().tools, 'tools capability');
const { tools } = await client.listTools();
assert.deepEqual(tools.map((tool) => tool.name).sort(),
  ['ask_question', 'list_projects', 'read_wiki_contents', 'read_wiki_structure', 'search']);
await client.ping();

const projects = text(await client.callTool({ name: 'list_projects', arguments: {} }));
assert.match(projects, /Secret Ledger/);
assert.match(projects, /Open Handbook/);
const structure = text(await client.callTool({ name: 'read_wiki_structure', arguments: { project: spec.privateProject } }));
assert.match(structure, new RegExp(`${spec.pageId}: Details`));
const page = text(await client.callTool({ name: 'read_wiki_contents', arguments: { project: String(spec.privateProject), page: spec.pageId } }));
assert.match(page, /barcode label/);
const wiki = text(await client.callTool({ name: 'read_wiki_contents', arguments: { project: spec.privateProject } }));
assert.match(wiki, /turnips/);
const hits = await waitFor(async () => {
  const found = text(await client.callTool({ name: 'search', arguments: { projects: [spec.privateProject], query: 'barcode', kind: 'docs' } }));
  return /barcode/.test(found) ? found : null;
}, 'the page is searchable');
assert.match(hits, /barcode/);
const answer = text(await client.callTool({ name: 'ask_question', arguments: { project: spec.privateProject, question: 'What does each pallet carry?' } }));
assert.match(answer, /barcode/);

// The SDK negotiated the current protocol version.
assert.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION);
// An unknown tool is a JSON-RPC error (the SDK throws McpError); oversized arguments are a
// tool execution error the model reads (2025-11-25).
await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (error) => error.code === -32602);
const oversized = await client.callTool({ name: 'ask_question', arguments: { project: spec.publicProject, question: 'q'.repeat(5000) } });
assert.equal(oversized.isError, true);
assert.match(text(oversized), /^Invalid arguments for ask_question: 'question' is longer than 2000 characters/);
// An unknown method; then malformed JSON-RPC sent in the SDK's session: the session lives on.
await assert.rejects(client.request({ method: 'resources/list', params: {} }, ListResourcesResultSchema),
  (error) => error.code === -32601);
const raw = (body) => fetch(spec.url, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${spec.token}`, 'Mcp-Session-Id': transport.sessionId, 'MCP-Protocol-Version': transport.protocolVersion },
  body,
});
const unparsable = await raw('{"jsonrpc": "2.0", "id": 1, "method": ');
assert.equal(unparsable.status, 400);
assert.equal((await unparsable.json()).error.code, -32700);
const invalid = await raw(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 7 }));
assert.equal(invalid.status, 400);
assert.equal((await invalid.json()).error.code, -32600);
await client.ping();
await transport.terminateSession();
await client.close();

// A stranger: the private project does not exist for them.
const stranger = await connect(spec.strangerToken);
const theirs = text(await stranger.client.callTool({ name: 'list_projects', arguments: {} }));
assert.doesNotMatch(theirs, /Secret Ledger/);
assert.match(theirs, /Open Handbook/);
const hidden = await stranger.client.callTool({ name: 'read_wiki_contents', arguments: { project: spec.privateProject } });
assert.equal(hidden.isError, true);
assert.equal(text(hidden), `Project not found: ${spec.privateProject}`);
await stranger.client.close();

// Anonymous: public projects only.
const anonymous = await connect(null);
assert.doesNotMatch(text(await anonymous.client.callTool({ name: 'list_projects', arguments: {} })), /Secret Ledger/);
await anonymous.client.close();

// A revoked token cannot even initialize.
await assert.rejects(connect(spec.revokedToken), (error) => /401|Unauthorized|invalid_token/i.test(String(error)));

console.log('sdk client: all checks passed');
