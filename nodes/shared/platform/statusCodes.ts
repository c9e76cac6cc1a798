import { API_VERSION } from './api';

/**
 * English explanations of the platform's statusCodes (its statusMsg is Chinese). Sources: the public
 * code lists (docs/platform.md#status-codes). A code outside them still fails the item; its
 * explanation then says that the reason is in statusMsg, or, for the few in FROM_STATUS_MSG, gives in
 * English what that statusMsg says.
 *
 * Long on purpose: one table of every documented code, read top to bottom like the platform's list.
 */
interface StatusCodeInfo {
	explanation: string;
	hint?: string;
	/** false for a code the public lists do not name */
	known: boolean;
}

type Entry = Omit<StatusCodeInfo, 'known'>;

const CHECK_CREDENTIALS = 'Check the Account SID and Auth Token in the Cloopen API credentials.';
const CHECK_CLOCK =
	"Check the clock of the n8n server: the signature's timestamp must be within 24 hours of the platform's time.";
const CHECK_APP =
	'Check the App ID: it must belong to this account and be live (or use test numbers in the sandbox).';
const SLOW_DOWN = 'Send fewer requests at once: lower "Parallel Requests" or retry later.';
const CHECK_SUB_ACCOUNT = 'Check the sub-account SID and token.';
const ASK_CLOOPEN = 'Contact Cloopen support to have it enabled for your application.';
const RETRY_LATER = 'Retry later.';
const NOT_THIS_PACKAGE =
	'This package does not send it; check a proxy in between or a request made by hand.';

const EXACT: Record<string, Entry> = {
	'111000': { explanation: 'The platform had an unknown error', hint: RETRY_LATER },
	'111100': {
		explanation: 'The account SID in the request URL has the wrong format',
		hint: CHECK_CREDENTIALS,
	},
	'111101': { explanation: 'The Authorization header was empty', hint: CHECK_CREDENTIALS },
	'111102': { explanation: 'The Authorization header was not Base64', hint: CHECK_CREDENTIALS },
	'111103': { explanation: 'The Authorization header was malformed', hint: CHECK_CREDENTIALS },
	'111104': {
		explanation: 'The account id in the Authorization header was empty',
		hint: CHECK_CREDENTIALS,
	},
	'111105': {
		explanation: 'The timestamp in the Authorization header was empty',
		hint: CHECK_CREDENTIALS,
	},
	'111106': {
		explanation: 'The signature timestamp has expired (older than 24 hours)',
		hint: CHECK_CLOCK,
	},
	'111107': {
		explanation: 'The account id in the Authorization header differs from the one in the URL',
		hint: CHECK_CREDENTIALS,
	},
	'111108': { explanation: 'The sig parameter was empty', hint: CHECK_CREDENTIALS },
	'111109': {
		explanation: 'The signature check failed',
		hint: 'The Auth Token does not match the Account SID. ' + CHECK_CREDENTIALS,
	},
	'111110': {
		explanation: 'The API version in the path is wrong',
		hint: `The package uses ${API_VERSION}; check a proxy in between.`,
	},
	'111111': { explanation: 'Too many concurrent requests for this account', hint: SLOW_DOWN },
	'111112': { explanation: 'Too many concurrent requests to the same number', hint: SLOW_DOWN },
	'111113': {
		explanation: 'The timestamp format was wrong (must be yyyyMMddHHmmss)',
		hint: CHECK_CLOCK,
	},
	'111114': { explanation: 'Too many concurrent requests for this resource', hint: SLOW_DOWN },
	'111115': {
		explanation: "The caller's IP address is not on the account's whitelist",
		hint: "Add the n8n server's public IP address to the whitelist in the Cloopen console.",
	},
	'111116': { explanation: 'Requests were sent too close together', hint: SLOW_DOWN },
	'111128': { explanation: 'The main account id was empty', hint: CHECK_CREDENTIALS },
	'111129': {
		explanation: 'The main account id contains characters that are not allowed',
		hint: CHECK_CREDENTIALS,
	},
	'111130': { explanation: 'The main account id has the wrong length', hint: CHECK_CREDENTIALS },
	'111131': { explanation: 'The main account token was empty', hint: CHECK_CREDENTIALS },
	'111132': {
		explanation: 'The main account token contains characters that are not allowed',
		hint: CHECK_CREDENTIALS,
	},
	'111133': { explanation: 'The main account token has the wrong length', hint: CHECK_CREDENTIALS },
	'111134': { explanation: 'The main account name is already used' },
	'111135': { explanation: 'The main account name was empty' },
	'111136': { explanation: 'The main account name contains characters that are not allowed' },
	'111137': { explanation: 'The main account name has the wrong length' },
	'111138': {
		explanation: 'The main account is not activated',
		hint: 'Activate the account in the Cloopen console.',
	},
	'111139': {
		explanation: 'The main account is suspended',
		hint: 'Top up or contact Cloopen: a suspended account suspends its sub-accounts too.',
	},
	'111140': { explanation: 'The main account is closed' },
	'111141': { explanation: 'The main account does not exist', hint: CHECK_CREDENTIALS },
	'111142': {
		explanation: 'The main account balance is insufficient',
		hint: 'Top up the account in the Cloopen console.',
	},
	'111143': { explanation: 'The main account token is invalid', hint: CHECK_CREDENTIALS },
	'111144': { explanation: 'The sub-account id was empty', hint: CHECK_SUB_ACCOUNT },
	'111145': {
		explanation: 'The sub-account id contains characters that are not allowed',
		hint: CHECK_SUB_ACCOUNT,
	},
	'111146': { explanation: 'The sub-account id has the wrong length', hint: CHECK_SUB_ACCOUNT },
	'111147': { explanation: 'The sub-account token was empty', hint: CHECK_SUB_ACCOUNT },
	'111148': {
		explanation: 'The sub-account token contains characters that are not allowed',
		hint: CHECK_SUB_ACCOUNT,
	},
	'111149': { explanation: 'The sub-account token has the wrong length', hint: CHECK_SUB_ACCOUNT },
	'111150': {
		explanation: 'A sub-account with this name already exists',
		hint: 'Use Sub-Account → Get by Name to retrieve it, or choose another Friendly Name.',
	},
	'111151': { explanation: 'The sub-account name was empty' },
	'111152': {
		explanation: 'The sub-account name contains characters that are not allowed',
		hint: 'Use letters, digits and the characters of an e-mail address.',
	},
	'111153': { explanation: 'The sub-account name has the wrong length' },
	'111154': { explanation: 'The sub-account is not activated' },
	'111155': { explanation: 'The sub-account is suspended' },
	'111156': {
		explanation: 'The sub-account is closed',
		hint: 'A closed sub-account cannot place calls, send SMS or authenticate.',
	},
	'111157': { explanation: 'The sub-account does not exist', hint: 'Check the sub-account SID.' },
	'111158': { explanation: 'The sub-account balance is insufficient' },
	'111159': { explanation: 'The sub-account token is invalid', hint: CHECK_CREDENTIALS },
	'111169': { explanation: 'The application id (App ID) was empty', hint: CHECK_APP },
	'111170': {
		explanation: 'The application id (App ID) is not valid: no application of this account has it',
		hint: CHECK_APP,
	},
	'111171': { explanation: 'The application id (App ID) has the wrong length', hint: CHECK_APP },
	'111172': { explanation: 'The application name is already used' },
	'111173': { explanation: 'The application name was empty' },
	'111174': { explanation: 'The application name contains characters that are not allowed' },
	'111175': { explanation: 'The application name has the wrong length' },
	'111176': { explanation: 'The application has been deleted', hint: CHECK_APP },
	'111177': { explanation: 'The application is disabled', hint: CHECK_APP },
	'111178': { explanation: 'The application is not published', hint: CHECK_APP },
	'111179': { explanation: 'The application is still under review', hint: CHECK_APP },
	'111180': { explanation: 'The application is suspended', hint: CHECK_APP },
	'111181': { explanation: 'The application does not exist', hint: CHECK_APP },
	'111182': {
		explanation: 'The application does not belong to this main account',
		hint: CHECK_APP,
	},
	'111183': {
		explanation:
			'The sub-account does not belong to this main account, or sub-account credentials were used for a main-account operation',
		hint: "Account info, sub-account management and bill records need the main account's Account SID and Auth Token in the credentials.",
	},
	'111184': { explanation: 'The sub-account does not belong to this application', hint: CHECK_APP },
	'111188': {
		explanation: 'The main account has no test numbers registered',
		hint: 'Register test numbers in the Cloopen console: an application that is not live can only reach them.',
	},
	'111190': { explanation: 'Bill records: the date was empty' },
	'111191': {
		explanation: 'Bill records: the date format was wrong',
		hint: 'The only accepted date is "day" (the previous day).',
	},
	'111192': {
		explanation: 'Bill records: no records match',
		hint: 'Check that a bill rule is configured for the account.',
	},
	'111193': { explanation: 'A demo application may not create sub-accounts', hint: CHECK_APP },
	'111196': { explanation: 'Sub-account list: startNo contains characters that are not allowed' },
	'111197': { explanation: 'Sub-account list: offset contains characters that are not allowed' },
	'111198': { explanation: 'Sub-account list: offset is above the limit (100)' },
	'111199': { explanation: 'Sub-account list: offset is below 1' },
	'111201': {
		explanation: 'Text to speech is not enabled for this application',
		hint: 'Enable text to speech (TTS) for the application in the Cloopen console.',
	},
	'111202': {
		explanation: 'Text to speech is restricted for this application',
		hint: ASK_CLOOPEN,
	},
	'111203': {
		explanation: 'Playing audio from the network is restricted for this application',
		hint: ASK_CLOOPEN,
	},
	'111211': {
		explanation: 'Bill records: no bill rule is configured for this account',
		hint: 'Ask Cloopen to grant the bill-record permission.',
	},
	'111212': { explanation: 'The application is not live', hint: CHECK_APP },
	'111213': {
		explanation: 'Bill records: the bill has not been generated yet',
		hint: 'Try again later in the day.',
	},
	'111218': { explanation: 'The callSid was empty' },
	'111226': { explanation: 'The application has been deleted or disabled', hint: CHECK_APP },
	'112300': { explanation: 'The SMS recipient number was empty' },
	'112301': { explanation: 'The SMS text was empty' },
	'112302': { explanation: 'Bulk SMS sending is paused for this account' },
	'112303': { explanation: 'SMS is not enabled for this application', hint: ASK_CLOOPEN },
	'112304': { explanation: 'The SMS text could not be converted to its encoding' },
	'112305': {
		explanation: 'The application is not live: it may only text its test numbers',
		hint: CHECK_APP,
	},
	'112306': { explanation: 'Template SMS: the number list was empty' },
	'112307': { explanation: 'Template SMS: the template id was empty' },
	'112308': {
		explanation: 'Template SMS: the template data was empty',
		hint: 'Give the template a value for each of its placeholders: Template Data in SMS → Send Template; Code Placeholder and Other Placeholder Values in One-Time Code → Send.',
	},
	'112309': { explanation: 'Template SMS: an encoding error occurred' },
	'112310': {
		explanation: 'Template SMS: the application is not live, so it may only text its test numbers',
		hint: CHECK_APP,
	},
	'112311': {
		explanation: 'Template SMS: the template does not exist',
		hint: 'Check the Template ID in the Cloopen console.',
	},
	'112312': { explanation: 'The application has no such SMS extension code' },
	'112313': {
		explanation: 'No SMS template matches',
		hint: 'Check the Template ID in the Cloopen console.',
	},
	'112314': { explanation: 'The daily SMS sending limit was reached' },
	'112315': {
		explanation: 'The template id is too long',
		hint: 'Check the Template ID in the Cloopen console.',
	},
	'112316': {
		explanation: 'The number list is malformed',
		hint: 'Separate numbers with English commas.',
	},
	'112317': { explanation: 'A number is on the blacklist' },
	'112318': { explanation: 'The template id must be numeric' },
	'112319': { explanation: 'A recipient number is too long' },
	'112320': {
		explanation: 'No callback URL is configured for incoming SMS and delivery reports',
		hint: 'Set it in the Cloopen console.',
	},
	'112321': {
		explanation: 'Incoming SMS and delivery reports are not switched on',
		hint: 'Switch them on in the Cloopen console.',
	},
	'112323': {
		explanation: 'The template is missing or not approved',
		hint: 'Wait for approval in the Cloopen console.',
	},
	'113302': {
		explanation: 'A test template was used with a number that is not a registered test number',
		hint: 'Register the number as a test number, or use an approved template.',
	},
	'160011': { explanation: 'The SMS contains blocked words' },
	'160012': { explanation: 'The SMS carrier channel failed to authenticate', hint: RETRY_LATER },
	'160013': { explanation: 'A number has the wrong format or is not supported' },
	'160014': { explanation: 'The SMS carrier channel has no balance left', hint: RETRY_LATER },
	'160015': { explanation: 'Too many SMS to a single number' },
	'160016': { explanation: 'The SMS carrier channel limits the sending speed', hint: SLOW_DOWN },
	'160017': { explanation: 'Too many numbers in one request for the SMS carrier channel' },
	'160018': { explanation: 'The SMS carrier channel found blocked words' },
	'160019': {
		explanation: 'The SMS signature is invalid',
		hint: 'Check the signature of the template in the Cloopen console.',
	},
	'160020': { explanation: 'The SMS text is too long' },
	'160021': { explanation: 'The same text may reach the same number only once a day' },
	'160022': { explanation: 'The daily number of SMS to this number was reached' },
	'160031': { explanation: 'The request parameters could not be parsed' },
	'160032': {
		explanation: 'The template is invalid',
		hint: 'Check the Template ID in the Cloopen console.',
	},
	'160033': { explanation: 'The SMS contains forbidden words' },
	'160034': { explanation: 'A number is on the blacklist' },
	'160035': { explanation: 'The SMS text was empty' },
	'160036': { explanation: 'The SMS template type is unknown' },
	'160037': { explanation: 'The SMS text is over the length limit' },
	'160038': {
		explanation: 'Verification codes were sent too often to this number',
		hint: 'Wait before sending another code.',
	},
	'160039': { explanation: 'Daily limit for this template and number reached' },
	'160040': { explanation: 'Daily limit for this template and number reached' },
	'160041': { explanation: 'Daily limit for this template and number reached' },
	'160042': { explanation: 'A number has the wrong format' },
	'160043': { explanation: 'The application and the template do not match', hint: CHECK_APP },
	'160048': { explanation: 'More than 200 numbers in one request' },
	'160050': { explanation: 'The SMS could not be sent' },
	'112600': { explanation: 'The platform timed out', hint: 'Retry the request.' },
	'112601': { explanation: 'HTTP protocol error', hint: NOT_THIS_PACKAGE },
	'112602': { explanation: 'The HTTP method is not supported' },
	'112603': { explanation: 'The request body has an encoding error' },
	'112604': { explanation: 'The POST request had no body' },
	'112605': { explanation: 'An HTTP status other than 200 came back inside the platform' },
	'112606': { explanation: 'HTTPS certificate error' },
	'112607': { explanation: 'HTTPS key algorithm error' },
	'112608': { explanation: 'HTTPS key error' },
	'112609': { explanation: 'Chunked HTTP encoding is not supported', hint: NOT_THIS_PACKAGE },
	'112610': { explanation: 'The Accept header was empty' },
	'112611': { explanation: 'The Content-Type header was empty' },
	'112612': { explanation: 'The Content-Length header was empty', hint: NOT_THIS_PACKAGE },
	'112613': { explanation: 'The XML of an answer inside the platform was malformed' },
	'112614': { explanation: 'The body format is not supported' },
	'112615': { explanation: "The platform could not read the caller's address" },
	'112616': { explanation: 'The request body could not be parsed' },
	'108034': { explanation: 'The verification code must be 4 to 8 characters long' },
	'108035': { explanation: 'Outbound calls to this number are restricted' },
	'108036': { explanation: 'Play times must be 1 to 3' },
};

/** Stretches of the public lists that share one meaning. */
const RANGES: Array<{ from: number; to: number; info: Entry }> = [
	{
		from: 111001,
		to: 111099,
		info: { explanation: 'The platform had an internal error', hint: RETRY_LATER },
	},
	{
		from: 111160,
		to: 111168,
		info: {
			explanation: 'A VoIP account is empty, malformed, disabled, unknown or its password is wrong',
			hint: NOT_THIS_PACKAGE,
		},
	},
	{
		from: 111185,
		to: 111187,
		info: {
			explanation: 'A VoIP account does not belong to this account, application or sub-account',
			hint: NOT_THIS_PACKAGE,
		},
	},
	{
		from: 160001,
		to: 160010,
		info: { explanation: 'The SMS carrier channel is busy', hint: RETRY_LATER },
	},
];

/**
 * The bracketed category a statusMsg starts with (【短信】 and so on), in English: what an unknown code is
 * about, read from the platform's own words.
 */
const CATEGORIES: Record<string, string> = {
	账号: 'An account error',
	子账号: 'A sub-account error',
	应用: 'An application error',
	短信: 'An SMS error',
	语音: 'A voice error',
	呼叫: 'A call error',
	账单: 'A bill-record error',
	话单: 'A bill-record error',
};

/**
 * Codes the public lists do not name, whose meaning the platform's own statusMsg gives: the English
 * is used only when statusMsg says it (docs/platform.md#status-codes). Another message with the same
 * code is an unknown code like any other.
 */
const FROM_STATUS_MSG: Array<{ code: string; statusMsg: RegExp; info: Entry }> = [
	{
		// 【呼叫】呼叫不存在: "the call does not exist"
		code: '111300',
		statusMsg: /呼叫不存在/,
		info: {
			explanation: 'No such call: the platform has no call with this Call SID',
			hint: 'Check the Call SID: it must be a callSid that Voice Verification or Voice Notification returned for this account (a sub-account sees only its own calls). The platform keeps a call only for a time, so an old one may be gone.',
		},
	},
];

function unknownCode(statusMsg: string): StatusCodeInfo {
	const category = CATEGORIES[/^\s*【([^】]+)】/.exec(statusMsg)?.[1] ?? ''] ?? 'An error';
	return {
		explanation: `${category} this package has no English text for: statusMsg, the platform's own message in Chinese, gives the reason`,
		hint: "Read statusMsg (a translator will do), or look the statusCode up in the error code list of Cloopen's developer documentation (doc.yuntongxun.com).",
		known: false,
	};
}

/** What a statusCode means, and what to do; for a code outside the lists, where to find the reason. */
export function describeStatusCode(statusCode: string, statusMsg = ''): StatusCodeInfo {
	const exact = EXACT[statusCode];
	if (exact) return { ...exact, known: true };
	const numeric = Number(statusCode);
	const range = RANGES.find((entry) => numeric >= entry.from && numeric <= entry.to);
	if (range) return { ...range.info, known: true };
	const fromMessage = FROM_STATUS_MSG.find(
		(entry) => entry.code === statusCode && entry.statusMsg.test(statusMsg),
	);
	return fromMessage ? { ...fromMessage.info, known: false } : unknownCode(statusMsg);
}

/** statusCodes that mean "these credentials or this account cannot be used"; the credential test names them. */
export const CREDENTIAL_FAILURE_CODES = [
	'111100',
	'111101',
	'111102',
	'111103',
	'111104',
	'111105',
	'111106',
	'111107',
	'111108',
	'111109',
	'111113',
	'111115',
	'111128',
	'111129',
	'111130',
	'111131',
	'111132',
	'111133',
	'111138',
	'111139',
	'111140',
	'111141',
	'111143',
	'111154',
	'111155',
	'111156',
	'111157',
	'111159',
];
