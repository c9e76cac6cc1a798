/**
 * Number ranges that toll fraud pays from, refused by the account's destination rule unless the
 * credential lists a prefix that covers them. Drawn from ITU-T E.164's global-service codes, the
 * NANP's premium-rate service codes (900, and 976 as an exchange code), the area codes of the FCC's
 * "One Ring" scam advisory, and the countries the CFCA's fraud surveys and Commsrisk's IRSF reports
 * name as leading revenue-share destinations. Each range is the digits after +; X stands for any digit.
 */
export interface PremiumRange {
	digits: string;
	name: string;
}

const range = (digits: string, name: string): PremiumRange => ({ digits, name });

export const PREMIUM_RANGES: PremiumRange[] = [
	range('1900', 'NANP premium-rate numbers'),
	range('1976', 'NANP premium-rate numbers'),
	range('1XXX976', 'NANP premium-rate exchange 976'),
	...['268', '284', '473', '649', '664', '767', '809', '829', '849', '876'].map((code) =>
		range(`1${code}`, 'NANP area code of the FCC "One Ring" scam advisory'),
	),
	range('800', 'international freephone numbers'),
	range('808', 'international shared-cost numbers'),
	range('870', 'Inmarsat satellite numbers'),
	range('878', 'universal personal telecommunications numbers'),
	range('881', 'global mobile satellite numbers'),
	range('882', 'international networks'),
	range('883', 'international networks'),
	range('888', 'international disaster-relief numbers'),
	range('979', 'international premium-rate numbers'),
	range('991', 'international public-correspondence trial numbers'),
	...[
		['53', 'Cuba'],
		['220', 'Gambia'],
		['224', 'Guinea'],
		['231', 'Liberia'],
		['232', 'Sierra Leone'],
		['239', 'São Tomé and Príncipe'],
		['245', 'Guinea-Bissau'],
		['246', 'Diego Garcia'],
		['247', 'Ascension Island'],
		['252', 'Somalia'],
		['290', 'Saint Helena'],
		['371', 'Latvia'],
		['500', 'Falkland Islands'],
		['674', 'Nauru'],
		['675', 'Papua New Guinea'],
		['677', 'Solomon Islands'],
		['678', 'Vanuatu'],
		['682', 'Cook Islands'],
		['683', 'Niue'],
		['686', 'Kiribati'],
		['688', 'Tuvalu'],
		['690', 'Tokelau'],
	].map(([code, country]) => range(code, `${country}, a country toll fraud often calls`)),
];
