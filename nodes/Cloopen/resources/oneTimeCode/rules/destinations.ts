import {
	CHINA_LANDLINE,
	CHINA_MOBILE,
	INTERNATIONAL,
	ONE_FORM_RULE,
} from '../../../../shared/platform/phoneNumbers';
import { maskNumber } from './maskNumber';

/** Where a number leads, as the allow-list tells destinations apart. */
export type DestinationKind = 'chinaMobile' | 'chinaLandline' | 'international';

export interface DestinationPolicy {
	allowed: DestinationKind[];
	/** Calling codes (852, 1, 44) whose numbers may be sent to when international is allowed. */
	countryCodes: string[];
}

export type Destination =
	{ allowed: true; kind: DestinationKind } | { allowed: false; rule: string; reason: string };

const KIND_NAMES: Record<DestinationKind, string> = {
	chinaMobile: 'mainland China mobile numbers',
	chinaLandline: 'mainland China landlines',
	international: 'numbers outside mainland China',
};

const ONE_OF_KIND: Record<DestinationKind, string> = {
	chinaMobile: 'a mainland China mobile number',
	chinaLandline: 'a mainland China landline',
	international: 'a number outside mainland China',
};

/** The kind of a number in its one written form (phoneNumbers.ts), undefined for any other. */
function kindOf(number: string): DestinationKind | undefined {
	if (CHINA_MOBILE.test(number)) return 'chinaMobile';
	if (CHINA_LANDLINE.test(number)) return 'chinaLandline';
	if (INTERNATIONAL.test(number)) return 'international';
	return undefined;
}

function allowedText(policy: DestinationPolicy): string {
	const kinds = policy.allowed.map((kind) =>
		kind === 'international'
			? `numbers with country code ${policy.countryCodes.map((code) => `+${code}`).join(', ')}`
			: KIND_NAMES[kind],
	);
	return kinds.length > 0 ? kinds.join('; ') : 'none';
}

/** Whether a code may go to this number (form, Allowed Destinations, a mobile for SMS). */
export function destinationOf(
	number: string,
	channel: 'voice' | 'sms',
	policy: DestinationPolicy,
): Destination {
	const masked = maskNumber(number);
	const kind = kindOf(number);
	if (kind === undefined)
		return {
			allowed: false,
			rule: 'number form',
			reason: `${masked} is not written in the form this node counts numbers by: ${ONE_FORM_RULE}`,
		};
	if (channel === 'sms' && kind === 'chinaLandline')
		return {
			allowed: false,
			rule: 'SMS to mobile numbers only',
			reason: `${masked} is a landline, and an SMS cannot reach it; send the code by voice call instead`,
		};
	const listed =
		kind !== 'international' ||
		policy.countryCodes.some((code) => number.slice(1).startsWith(code));
	if (!policy.allowed.includes(kind) || !listed) {
		return {
			allowed: false,
			rule: 'destination allow-list',
			reason: `${masked} is ${ONE_OF_KIND[kind]}, and Allowed Destinations lets codes go only to ${allowedText(policy)}`,
		};
	}
	return { allowed: true, kind };
}
