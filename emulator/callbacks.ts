import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

import type { EmulatorCallbackRecord, EmulatorCallRecord } from './state';

/** The acknowledgement the platform documents (note the lower-case `statuscode`). */
export const ACKNOWLEDGEMENT =
	'<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>';

/**
 * Whether a reply is the acknowledgement, tolerating what a real XML reader would not notice:
 * whitespace around and between elements, and the XML declaration's quotes and case ("utf-8").
 * The elements themselves must be exact: `<statusCode>` instead of `<statuscode>` is not it.
 */
export function isAcknowledgement(reply: string): boolean {
	const declaration =
		/^\s*<\?xml\s+version\s*=\s*["']1\.0["']\s+encoding\s*=\s*["']utf-8["']\s*\?>/i.exec(reply);
	if (!declaration) return false;
	const rest = reply.slice(declaration[0].length).replace(/>\s+</g, '><').trim();
	return rest === '<Response><statuscode>000000</statuscode></Response>';
}

/** Tests must never reach the internet: only loopback receives notifications. */
export function isLoopback(url: URL): boolean {
	const host = url.hostname.replace(/^\[|\]$/g, '');
	if (host === 'localhost') return true;
	if (isIP(host) === 4) return host.startsWith('127.');
	return host === '::1';
}

const escapeXml = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export type NotifiedCall = Pick<
	EmulatorCallRecord,
	'kind' | 'to' | 'callSid' | 'result' | 'duration' | 'userData'
>;

/** The documented payload (docs/platform.md#call-result-notifications): VoiceCode with root Request, SellingCall with root request. */
export function notificationBody(call: NotifiedCall): string {
	const root = call.kind === 'voiceVerify' ? 'Request' : 'request';
	const action = call.kind === 'voiceVerify' ? 'VoiceCode' : 'SellingCall';
	const userData =
		call.userData !== undefined ? `<userData>${escapeXml(call.userData)}</userData>` : '';
	return (
		`<?xml version="1.0" encoding="UTF-8"?><${root}><action>${action}</action><number>${escapeXml(call.to)}</number>` +
		`<callSid>${call.callSid}</callSid><state>${call.result}</state><duration>${call.duration}</duration>${userData}</${root}>`
	);
}

/** The acknowledgement is 87 bytes; a reply this long is not one, and is not kept whole. */
export const MAX_REPLY_BYTES = 64 * 1024;

/** POSTs one notification and records what came back; never throws. `signal` aborts it (close()). */
export async function deliverNotification(
	call: EmulatorCallRecord,
	signal: AbortSignal,
): Promise<EmulatorCallbackRecord> {
	const body = notificationBody(call);
	const record: EmulatorCallbackRecord = {
		callSid: call.callSid,
		url: call.respUrl!,
		body,
		acknowledged: false,
		exactAcknowledgement: false,
	};
	let url: URL;
	try {
		url = new URL(call.respUrl!);
	} catch {
		return { ...record, error: 'not delivered: respUrl is not a URL' };
	}
	if (!isLoopback(url))
		return { ...record, error: 'not delivered: the emulator only calls loopback addresses' };
	const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
	return await new Promise((resolve) => {
		const outgoing = send(
			url,
			{
				method: 'POST',
				// The platform documents text/plain although the body is XML.
				headers: {
					'Content-Type': 'text/plain;charset=utf-8',
					'Content-Length': Buffer.byteLength(body),
				},
				// A loopback receiver with a self-signed certificate is the usual case in tests.
				rejectUnauthorized: false,
				timeout: 10_000,
				signal,
			},
			(incoming) => {
				const chunks: Buffer[] = [];
				let size = 0;
				incoming.on('data', (chunk: Buffer) => {
					size += chunk.length;
					if (size <= MAX_REPLY_BYTES) return void chunks.push(chunk);
					chunks.length = 0;
					resolve({
						...record,
						httpStatus: incoming.statusCode,
						error: `reply over ${MAX_REPLY_BYTES} bytes: not read further, not recorded`,
					});
					outgoing.destroy();
				});
				incoming.on('error', (error) =>
					resolve({ ...record, httpStatus: incoming.statusCode, error: error.message }),
				);
				incoming.on('end', () => {
					const reply = Buffer.concat(chunks).toString('utf8');
					const ok = incoming.statusCode === 200;
					resolve({
						...record,
						httpStatus: incoming.statusCode,
						reply,
						acknowledged: ok && isAcknowledgement(reply),
						exactAcknowledgement: ok && reply === ACKNOWLEDGEMENT,
					});
				});
			},
		);
		outgoing.on('timeout', () => outgoing.destroy(new Error('no reply within 10 s')));
		outgoing.on('error', (error) => resolve({ ...record, error: error.message }));
		outgoing.end(body);
	});
}
