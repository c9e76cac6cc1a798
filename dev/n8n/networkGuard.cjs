'use strict';
// Preloaded into n8n (NODE_OPTIONS=--require) by n8nInstance.ts: every TCP connection to a host other
// than loopback is refused and written to N8N_E2E_NETWORK_LOG, so the suite can prove n8n made no
// attempt to call home and never reaches outside 127.0.0.1 even on a machine with internet access.
const net = require('node:net');
const fs = require('node:fs');

const logFile = process.env.N8N_E2E_NETWORK_LOG;
const loopback = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);
const originalConnect = net.Socket.prototype.connect;

function target(args) {
	const first = Array.isArray(args[0]) ? args[0][0] : args[0]; // http passes [options, cb] as one array
	if (first && typeof first === 'object') {
		if (first.path) return undefined; // a Unix socket
		return { host: first.host || 'localhost', port: first.port };
	}
	if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined; // a Unix socket path
	return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
}

net.Socket.prototype.connect = function guardedConnect(...args) {
	const to = target(args);
	if (to && !loopback.has(String(to.host).toLowerCase())) {
		const line = `${new Date().toISOString()} pid ${process.pid} refused ${to.host}:${to.port}\n`;
		if (logFile) fs.appendFileSync(logFile, line);
		const error = Object.assign(
			new Error(`connect ECONNREFUSED ${to.host}:${to.port} (e2e network guard)`),
			{
				code: 'ECONNREFUSED',
			},
		);
		process.nextTick(() => this.destroy(error));
		return this;
	}
	return originalConnect.apply(this, args);
};
