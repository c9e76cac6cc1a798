import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CloopenTrigger } from '../nodes/CloopenTrigger/CloopenTrigger.node';
import { serveWebhook } from '../dev/engine';

const ACK =
	'<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>';
const body = (i: number) =>
	`<?xml version="1.0" encoding="UTF-8"?><Request><action>VoiceCode</action><number>13800000002</number>` +
	`<callSid>${String(i).padStart(32, '0')}</callSid><state>2</state><duration>0</duration><userData>u${i}</userData></Request>`;

async function postAll(url: string, count: number): Promise<number> {
	const start = process.hrtime.bigint();
	for (let i = 0; i < count; i++) {
		const response = await fetch(url, {
			method: 'POST',
			body: body(i),
			headers: { 'Content-Type': 'text/plain' },
		});
		if ((await response.text()) !== ACK) throw new Error('notification not acknowledged');
	}
	return Number(process.hrtime.bigint() - start) / 1e6 / count;
}

/**
 * (c) of the benchmark: milliseconds per notification through the trigger's webhook() in n8n-core's
 * WebhookContext over loopback HTTP, against a bare HTTP server that only answers the same
 * acknowledgement (the cost of the HTTP round trip itself), `count` notifications each.
 */
export async function measureTriggerCost(count: number) {
	const bare = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(200, { 'Content-Type': 'application/xml' });
			response.end(ACK);
		});
	});
	await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
	const served = await serveWebhook(CloopenTrigger, {
		events: ['*'],
		results: ['*'],
		secret: '',
		// Opened for the bench's own posts (the trigger is closed until its owner opens it).
		allowedIps: '127.0.0.1, ::1',
		verifyWithPlatform: false,
		options: {},
	});
	try {
		const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
		await postAll(bareUrl, count);
		const baselineMs = await postAll(bareUrl, count);
		const triggerMs = await postAll(served.url, count);
		if (served.executions.length !== count)
			throw new Error('not every notification started a workflow');
		return { perNotificationMs: triggerMs, baselineMs, count };
	} finally {
		bare.closeAllConnections();
		bare.close();
		await served.close();
	}
}
