import { API_VERSION } from './api';

/**
 * English explanations of the platform's statusCodes (its statusMsg is Chinese). Sources: the public
 * code lists (docs/platform.md#status-codes). Unknown codes still fail; they only lack a hint.
 */
interface StatusCodeInfo {
	explanation: string;
	hint?: string;
}

const CHECK_CREDENTIALS = 'Check the Account SID and Auth Token in the Cloopen API credentials.';
const CHECK_CLOCK =
	"Check the clock of the n8n server: the signature's timestamp must be within 24 hours of the platform's time.";
const CHECK_APP =
	'Check the App ID: it must belong to this account and be live (or use test numbers in the sandbox).';
const SLOW_DOWN = 'Send fewer requests at once: lower "Parallel Requests" or retry later.';

const EXACT: Record<string, StatusCodeInfo> = {
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
	'111150': {
		explanation: 'A sub-account with this name already exists',
		hint: 'Use Sub-Account → Get by Name to retrieve it, or choose another Friendly Name.',
	},
	'111154': { explanation: 'The sub-account is not activated' },
	'111155': { explanation: 'The sub-account is suspended' },
	'111156': {
		explanation: 'The sub-account is closed',
		hint: 'A closed sub-account cannot place calls, send SMS or authenticate.',
	},
	'111157': { explanation: 'The sub-account does not exist', hint: 'Check the sub-account SID.' },
	'111159': { explanation: 'The sub-account token is invalid', hint: CHECK_CREDENTIALS },
	'111183': {
		explanation:
			'The sub-account does not belong to this main account, or sub-account credentials were used for a main-account operation',
		hint: "Account info, sub-account management and bill records need the main account's Account SID and Auth Token in the credentials.",
	},
	'111184': { explanation: 'The sub-account does not belong to this application', hint: CHECK_APP },
	'111190': { explanation: 'Bill records: the date was empty' },
	'111191': {
		explanation: 'Bill records: the date format was wrong',
		hint: 'The only accepted date is "day" (the previous day).',
	},
	'111192': { explanation: 'Bill records: no records match' },
	'111193': { explanation: 'A demo application may not create sub-accounts', hint: CHECK_APP },
	'111211': {
		explanation: 'Bill records: no bill rule is configured for this account',
		hint: 'Ask Cloopen to grant the bill-record permission.',
	},
	'111213': {
		explanation: 'Bill records: the bill has not been generated yet',
		hint: 'Try again later in the day.',
	},
	'112300': { explanation: 'The SMS recipient number was empty' },
	'112306': { explanation: 'Template SMS: the number list was empty' },
	'112307': { explanation: 'Template SMS: the template id was empty' },
	'112308': {
		explanation: 'Template SMS: the template data was empty',
		hint: 'Add one Template Data value per placeholder of the template.',
	},
	'112309': { explanation: 'Template SMS: an encoding error occurred' },
	'112310': { explanation: 'Template SMS: the application is not live', hint: CHECK_APP },
	'112311': {
		explanation: 'Template SMS: the template does not exist',
		hint: 'Check the Template ID in the Cloopen console.',
	},
	'112314': { explanation: 'The daily SMS sending limit was reached' },
	'112316': {
		explanation: 'The number list is malformed',
		hint: 'Separate numbers with English commas.',
	},
	'112317': { explanation: 'A number is on the blacklist' },
	'112318': { explanation: 'The template id must be numeric' },
	'112323': {
		explanation: 'The template is missing or not approved',
		hint: 'Wait for approval in the Cloopen console.',
	},
	'113302': {
		explanation: 'A test template was used with a number that is not a registered test number',
		hint: 'Register the number as a test number, or use an approved template.',
	},
	'160031': { explanation: 'The request parameters could not be parsed' },
	'160032': {
		explanation: 'The template is invalid',
		hint: 'Check the Template ID in the Cloopen console.',
	},
	'160034': { explanation: 'A number is on the blacklist' },
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
	'112602': { explanation: 'The HTTP method is not supported' },
	'112604': { explanation: 'The POST request had no body' },
	'112610': { explanation: 'The Accept header was empty' },
	'112611': { explanation: 'The Content-Type header was empty' },
	'112614': { explanation: 'The body format is not supported' },
	'112616': { explanation: 'The request body could not be parsed' },
	'108034': { explanation: 'The verification code must be 4 to 8 characters long' },
	'108035': { explanation: 'Outbound calls to this number are restricted' },
	'108036': { explanation: 'Play times must be 1 to 3' },
};

const RANGES: Array<{ from: number; to: number; info: StatusCodeInfo }> = [
	{
		from: 111169,
		to: 111182,
		info: {
			explanation:
				'The application id is empty, unknown, disabled, not live or not under this account',
			hint: CHECK_APP,
		},
	},
	{
		from: 111196,
		to: 111199,
		info: { explanation: 'startNo or offset is invalid (offset must be 1 to 100)' },
	},
];

const OTHER_APP_CODES = new Set(['111212', '111226']);

export function describeStatusCode(statusCode: string): StatusCodeInfo | undefined {
	if (EXACT[statusCode]) return EXACT[statusCode];
	if (OTHER_APP_CODES.has(statusCode)) return RANGES[0].info;
	const numeric = Number(statusCode);
	return RANGES.find((range) => numeric >= range.from && numeric <= range.to)?.info;
}

/** statusCodes that mean "these credentials or this account cannot be used"; the credential test names them. */
export const CREDENTIAL_FAILURE_CODES = [
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
