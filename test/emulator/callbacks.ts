import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

import type { EmulatorCallbackRecord, EmulatorCallRecord } from './state';

export const ACKNOWLEDGEMENT = '<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>';

/** Tests must never reach the internet: only loopback receives notifications. */
function isLoopback(url: URL): boolean {
	const host = url.hostname.replace(/^\[|\]$/g, '');
	if (host === 'localhost') return true;
	if (isIP(host) === 4) return host.startsWith('127.');
	return host === '::1';
}

/** The documented payload (PLATFORM-FACTS.md): VoiceCode with root Request, SellingCall with root request. */
export function notificationBody(call: EmulatorCallRecord): string {
	const root = call.kind === 'voiceVerify' ? 'Request' : 'request';
	const action = call.kind === 'voiceVerify' ? 'VoiceCode' : 'SellingCall';
	const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	const userData = call.userData !== undefined ? `<userData>${escape(call.userData)}</userData>` : '';
	return (
		`<?xml version="1.0" encoding="UTF-8"?><${root}><action>${action}</action><number>${escape(call.to)}</number>` +
		`<callSid>${call.callSid}</callSid><state>${call.result}</state><duration>${call.duration}</duration>${userData}</${root}>`
	);
}

/** POSTs one notification and records what came back; never throws. */
export async function deliverNotification(call: EmulatorCallRecord): Promise<EmulatorCallbackRecord> {
	const body = notificationBody(call);
	const record: EmulatorCallbackRecord = { callSid: call.callSid, url: call.respUrl!, body, acknowledged: false };
	let url: URL;
	try {
		url = new URL(call.respUrl!);
	} catch {
		return { ...record, error: 'respUrl is not a URL' };
	}
	if (!isLoopback(url)) return { ...record, error: 'not delivered: the emulator only calls loopback addresses' };
	const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
	return await new Promise((resolve) => {
		const outgoing = send(
			url,
			{
				method: 'POST',
				// The platform documents text/plain although the body is XML.
				headers: { 'Content-Type': 'text/plain;charset=utf-8', 'Content-Length': Buffer.byteLength(body) },
				rejectUnauthorized: false,
				timeout: 10_000,
			},
			(incoming) => {
				const chunks: Buffer[] = [];
				incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
				incoming.on('end', () => {
					const reply = Buffer.concat(chunks).toString('utf8');
					resolve({ ...record, httpStatus: incoming.statusCode, reply, acknowledged: incoming.statusCode === 200 && reply.trim() === ACKNOWLEDGEMENT });
				});
			},
		);
		outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
		outgoing.on('error', (error) => resolve({ ...record, error: error.message }));
		outgoing.end(body);
	});
}
