// The peer for bench/collab: @hocuspocus/server 3 on this machine's Node, accepting any
// token, keeping documents in memory only (no store hook, so no durability at all).
'use strict';
const { Server } = require('@hocuspocus/server');
const port = Number(process.argv[2] || 18100);
const server = new Server({ port, quiet: true, async onAuthenticate() { return {}; } });
server.listen().then(() => process.stdout.write('listening ' + port + '\n'));
