/**
 * What users type into n8n's node panel to find the Cloopen node: the codex aliases must hold each
 * (test/unit/codex.test.ts) and the real editor must find the node by each (test/e2e/editor.e2e.test.ts).
 */
export const SEARCH_TERMS = [
	'phone',
	'call',
	'text to speech',
	'sms',
	'otp',
	'one-time code',
	'sign-in code',
	'verification code',
	// Cloopen's own words, as its console and Chinese developers write them; n8n 2.41 shows no
	// translations from community packages, so these find the nodes by alias.
	'容联',
	'云通讯',
	'短信',
	'语音验证码',
	'验证码',
	'语音通知',
];
