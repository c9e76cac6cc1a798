import type { WebhookRequest } from '../shared/notifications/readBody';

/** An address as a number; an IPv4-mapped IPv6 address (::ffff:10.1.2.3) is the IPv4 address. */
interface Address {
	version: 4 | 6;
	value: bigint;
}

interface AddressRange {
	/** The entry as the owner typed it. */
	entry: string;
	version: 4 | 6;
	base: bigint;
	prefix: number;
}

const BITS: Record<4 | 6, number> = { 4: 32, 6: 128 };
const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

function parseIpv4(text: string): bigint | undefined {
	const octets = text.split('.');
	if (octets.length !== 4 || !octets.every((octet) => OCTET.test(octet))) return undefined;
	return octets.reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
}

function parseHexGroups(text: string): bigint[] | undefined {
	if (text === '') return [];
	const groups = text.split(':');
	if (!groups.every((group) => HEX_GROUP.test(group))) return undefined;
	return groups.map((group) => BigInt(parseInt(group, 16)));
}

function parseIpv6(text: string): bigint | undefined {
	let head = text;
	const tail: bigint[] = [];
	// An IPv4 tail (::ffff:1.2.3.4) stands for the last two 16-bit groups.
	const lastColon = text.lastIndexOf(':');
	if (lastColon === -1) return undefined;
	if (text.slice(lastColon + 1).includes('.')) {
		const ipv4 = parseIpv4(text.slice(lastColon + 1));
		if (ipv4 === undefined) return undefined;
		tail.push(ipv4 >> 16n, ipv4 & 0xffffn);
		head = text.slice(0, lastColon + 1);
		if (!head.endsWith('::')) head = head.slice(0, -1);
	}
	const halves = head.split('::');
	if (halves.length > 2) return undefined;
	const left = parseHexGroups(halves[0]);
	const right = halves.length === 2 ? parseHexGroups(halves[1]) : [];
	if (!left || !right) return undefined;
	const given = left.length + right.length + tail.length;
	if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
	const zeros = new Array<bigint>(8 - given).fill(0n);
	return [...left, ...zeros, ...right, ...tail].reduce(
		(value, group) => (value << 16n) | group,
		0n,
	);
}

/** Parses an IPv4 or IPv6 address (brackets and a zone index allowed); undefined when it is not one. */
export function parseAddress(input: string): Address | undefined {
	const text = input
		.trim()
		.replace(/^\[(.*)\]$/, '$1')
		.replace(/%[A-Za-z0-9_.-]+$/, '');
	const ipv4 = parseIpv4(text);
	if (ipv4 !== undefined) return { version: 4, value: ipv4 };
	const ipv6 = parseIpv6(text);
	if (ipv6 === undefined) return undefined;
	if (ipv6 >> 32n === 0xffffn) return { version: 4, value: ipv6 & 0xffffffffn };
	return { version: 6, value: ipv6 };
}

function mask(version: 4 | 6, prefix: number): bigint {
	const all = (1n << BigInt(BITS[version])) - 1n;
	return (all >> BigInt(prefix)) ^ all;
}

/** Parses "10.0.0.0/8", "203.0.113.7", "2001:db8::/32" or "::ffff:10.0.0.0/104"; undefined when invalid. */
export function parseRange(input: string): AddressRange | undefined {
	const [addressText, prefixText, extra] = input.trim().split('/');
	if (extra !== undefined) return undefined;
	const address = parseAddress(addressText);
	if (!address) return undefined;
	let prefix = BITS[address.version];
	if (prefixText !== undefined) {
		if (!/^\d{1,3}$/.test(prefixText)) return undefined;
		prefix = Number(prefixText);
		// A range written as mapped IPv6 names IPv4 addresses; its prefix counts from the 96th bit.
		if (address.version === 4 && addressText.includes(':')) {
			if (prefix < 96) return undefined;
			prefix -= 96;
		}
		if (prefix > BITS[address.version]) return undefined;
	}
	return {
		entry: input.trim(),
		version: address.version,
		base: address.value & mask(address.version, prefix),
		prefix,
	};
}

/** The allowlist as typed: entries separated by commas, semicolons, spaces or new lines. */
export function parseAllowlist(text: string): { ranges: AddressRange[]; invalid: string[] } {
	const ranges: AddressRange[] = [];
	const invalid: string[] = [];
	for (const entry of text.split(/[\s,;]+/).filter((part) => part !== '')) {
		const range = parseRange(entry);
		if (range) ranges.push(range);
		else invalid.push(entry);
	}
	return { ranges, invalid };
}

/** The first range that holds `address`, if any. */
function rangeHolding(
	address: string | undefined,
	ranges: AddressRange[],
): AddressRange | undefined {
	const parsed = address === undefined ? undefined : parseAddress(address);
	if (!parsed) return undefined;
	return ranges.find(
		(range) =>
			range.version === parsed.version &&
			(parsed.value & mask(range.version, range.prefix)) === range.base,
	);
}

export function isAllowed(address: string | undefined, ranges: AddressRange[]): boolean {
	return rangeHolding(address, ranges) !== undefined;
}

/**
 * The entry of Allowed IP Addresses (as typed) that lists `address`: the platform's own address, as
 * far as the trigger knows; the valid entries count even while others are not addresses.
 */
export function listedEntry(address: string | undefined, allowedIps: string): string | undefined {
	if (allowedIps.trim() === '') return undefined;
	return rangeHolding(address, parseAllowlist(allowedIps).ranges)?.entry;
}

/** The right-most entry of X-Forwarded-For, without a port: the address the proxy in front of n8n saw. */
export function lastForwardedAddress(header: string | string[] | undefined): string | undefined {
	if (header === undefined) return undefined;
	const entries = (Array.isArray(header) ? header.join(',') : header)
		.split(',')
		.map((entry) => entry.trim().replace(/^"(.*)"$/, '$1'))
		.filter((entry) => entry !== '');
	const last = entries.at(-1);
	if (last === undefined) return undefined;
	const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(last);
	if (bracketed) return bracketed[1];
	const ipv4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(last);
	return ipv4WithPort ? ipv4WithPort[1] : last;
}

/**
 * The address a request came from. By default the one n8n reports (`req.ip`: the TCP peer, or the
 * client as n8n's own N8N_PROXY_HOPS setting derives it), never a header the sender writes. With
 * trustForwardedFor, the right-most X-Forwarded-For entry: what the reverse proxy directly in front
 * of n8n appended; entries left of it can be forged by the sender and are ignored.
 */
export function clientAddress(
	request: WebhookRequest,
	trustForwardedFor: boolean,
): string | undefined {
	if (trustForwardedFor) {
		const forwarded = lastForwardedAddress(request.headers['x-forwarded-for']);
		if (forwarded !== undefined) return forwarded;
	}
	return request.ip ?? request.socket?.remoteAddress;
}
