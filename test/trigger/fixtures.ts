/** Call result notifications as the platform sends them (docs/platform.md#call-result-notifications), and variants. */

import type { IDataObject } from 'n8n-workflow';

/** The acknowledgement the platform expects, byte for byte, written here apart from the node's copy. */
export const ACK =
	'<?xml version="1.0" encoding="UTF-8"?><Response><statuscode>000000</statuscode></Response>';

/** Allowed IP Addresses that admit every request the tests send (they post from loopback). */
export const LOOPBACK = '127.0.0.1, ::1';

/**
 * The trigger's parameters with every event and result let through, opened (the trigger is closed
 * until its owner opens it) by Allowed IP Addresses to the loopback addresses the tests post from,
 * and no other guard on.
 */
export const OPEN_TRIGGER: IDataObject = {
	events: ['*'],
	results: ['*'],
	secret: '',
	allowedIps: LOOPBACK,
	trustForwardedFor: false,
	verifyWithPlatform: false,
	options: {},
};

/** The documented voice verification example, verbatim (root <Request>, a line break inside). */
export const VOICE_CODE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<Request><action>VoiceCode</action><number>13800000000</number>
<callSid>1307241452320369000100030000002f</callSid><state>0</state><duration>30</duration></Request>`;

/** Voice notification: the documented example has a lower-case root <request>; userData present. */
export const SELLING_CALL_XML = `<?xml version="1.0" encoding="UTF-8"?>
<request>
  <action>SellingCall</action>
  <number>13900000001</number>
  <callSid>2307241452320369000100030000003a</callSid>
  <state>1</state>
  <duration>0</duration>
  <userData>order-42 &amp; friends</userData>
</request>`;

export const voiceCodeXml = (
	fields: { state?: string; callSid?: string; userData?: string; number?: string } = {},
) =>
	`<?xml version="1.0" encoding="UTF-8"?><Request><action>VoiceCode</action><number>${fields.number ?? '13800000000'}</number>` +
	`<callSid>${fields.callSid ?? '1307241452320369000100030000002f'}</callSid><state>${fields.state ?? '0'}</state>` +
	`<duration>30</duration>${fields.userData !== undefined ? `<userData>${fields.userData}</userData>` : ''}</Request>`;

/** An SMS status report, in the JSON shape seen in third-party code. */
export const SMS_ARRIVED_JSON = JSON.stringify({
	Request: {
		action: 'SMSArrived',
		smsType: '1',
		content: '',
		fromNum: '13800000000',
		dateSent: '20240101120000',
		deliverCode: 'DELIVRD',
		recvTime: '20240101120005',
		status: '0',
		reqId: 'ff8080813c373cd7013c3b7f0bca0003',
	},
});

/** A voice verification in JSON, wrapped and with numbers where the XML has text. */
export const VOICE_CODE_JSON = JSON.stringify({
	Request: {
		action: 'VoiceCode',
		number: '13800000000',
		callSid: '1307241452320369000100030000002f',
		state: 2,
		duration: 0,
		userData: 'user-7',
	},
});

/** The same fields flat, without a Request wrapper. */
export const FLAT_JSON = JSON.stringify({
	action: 'SellingCall',
	number: '13900000001',
	callSid: '2307241452320369000100030000003a',
	state: '0',
	duration: '17',
});

export const CALL_SID = '1307241452320369000100030000002f';

/** The classic entity expansion attack. */
export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<Request><action>VoiceCode</action><callSid>abc</callSid><state>0</state><userData>&lol3;</userData></Request>`;

export const EXTERNAL_ENTITY = `<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Request><action>VoiceCode</action><callSid>abc</callSid><state>0</state><userData>&xxe;</userData></Request>`;

export const deeplyNestedXml = (depth: number) =>
	`<Request>${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}</Request>`;
export const deeplyNestedJson = (depth: number) =>
	`{"Request":${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}}`;
