import {
	clientAddress,
	isAllowed,
	lastForwardedAddress,
	parseAddress,
	parseAllowlist,
	parseRange,
} from '../../nodes/CloopenTrigger/ipAllowlist';
import { Refusal } from '../../nodes/shared/notifications/refusal';
import { checkSecret, secretsEqual } from '../../nodes/CloopenTrigger/secret';

const refusal = (fn: () => void) => {
	try {
		fn();
		return undefined;
	} catch (error) {
		expect(error).toBeInstanceOf(Refusal);
		return { status: (error as Refusal).status, reason: (error as Refusal).reason };
	}
};

describe('secret in the URL', () => {
	test('no secret configured: anything passes', () => {
		expect(refusal(() => checkSecret('', {}))).toBeUndefined();
		expect(refusal(() => checkSecret('', { secret: 'whatever' }))).toBeUndefined();
	});

	test('right, wrong, missing, empty, repeated', () => {
		expect(refusal(() => checkSecret('s3cret-Value', { secret: 's3cret-Value' }))).toBeUndefined();
		expect(refusal(() => checkSecret('s3cret-Value', { secret: 's3cret-Valuf' }))).toEqual({
			status: 401,
			reason: 'wrong secret',
		});
		expect(refusal(() => checkSecret('s3cret-Value', { secret: 's3cret' }))).toEqual({
			status: 401,
			reason: 'wrong secret',
		});
		expect(refusal(() => checkSecret('s3cret-Value', {}))).toEqual({
			status: 401,
			reason: 'secret missing',
		});
		expect(refusal(() => checkSecret('s3cret-Value', undefined))).toEqual({
			status: 401,
			reason: 'secret missing',
		});
		expect(refusal(() => checkSecret('s3cret-Value', { secret: '' }))).toEqual({
			status: 401,
			reason: 'secret missing',
		});
		expect(refusal(() => checkSecret('s3cret-Value', { secret: ['s3cret-Value', 'x'] }))).toEqual({
			status: 401,
			reason: 'wrong secret',
		});
		expect(refusal(() => checkSecret('s3cret-Value', { secret: { a: '1' } }))).toEqual({
			status: 401,
			reason: 'wrong secret',
		});
	});

	test('comparison works for any lengths and non-ASCII', () => {
		expect(secretsEqual('密钥', '密钥')).toBe(true);
		expect(secretsEqual('a', 'a'.repeat(1000))).toBe(false);
	});
});

describe('IP allowlist', () => {
	test('addresses', () => {
		expect(parseAddress('203.0.113.7')).toEqual({ version: 4, value: 0xcb007107n });
		expect(parseAddress('::ffff:203.0.113.7')).toEqual({ version: 4, value: 0xcb007107n });
		expect(parseAddress('::FFFF:cb00:7107')).toEqual({ version: 4, value: 0xcb007107n });
		expect(parseAddress('[::1]')).toEqual({ version: 6, value: 1n });
		expect(parseAddress('fe80::1%eth0')).toEqual({ version: 6, value: (0xfe80n << 112n) | 1n });
		expect(parseAddress('2001:db8:0:0:0:0:0:1')).toEqual(parseAddress('2001:db8::1'));
		for (const bad of [
			'256.1.1.1',
			'1.2.3',
			'01.2.3.4',
			'1.2.3.4.5',
			'abc',
			'',
			'1::2::3',
			'1:2:3:4:5:6:7:8:9',
			'::ffff:1.2.3.256',
			'12345::',
		]) {
			expect(parseAddress(bad)).toBeUndefined();
		}
	});

	test('ranges', () => {
		expect(parseRange('10.0.0.0/8')).toEqual({
			entry: '10.0.0.0/8',
			version: 4,
			base: 0x0a000000n,
			prefix: 8,
		});
		expect(parseRange('10.9.8.7/8')).toEqual({
			entry: '10.9.8.7/8',
			version: 4,
			base: 0x0a000000n,
			prefix: 8,
		});
		expect(parseRange('::ffff:10.0.0.0/104')).toEqual({
			entry: '::ffff:10.0.0.0/104',
			version: 4,
			base: 0x0a000000n,
			prefix: 8,
		});
		expect(parseRange('0.0.0.0/0')).toEqual({
			entry: '0.0.0.0/0',
			version: 4,
			base: 0n,
			prefix: 0,
		});
		for (const bad of [
			'10.0.0.0/33',
			'10.0.0.0/',
			'10.0.0.0/a',
			'10.0.0.0/8/1',
			'::ffff:10.0.0.0/64',
			'2001:db8::/129',
		]) {
			expect(parseRange(bad)).toBeUndefined();
		}
	});

	test('matching, IPv4, CIDR, IPv6-mapped IPv4 and IPv6', () => {
		const { ranges, invalid } = parseAllowlist(
			'203.0.113.7, 198.51.100.0/24;\n2001:db8::/32 ::ffff:192.0.2.0/120',
		);
		expect(invalid).toEqual([]);
		expect(isAllowed('203.0.113.7', ranges)).toBe(true);
		expect(isAllowed('::ffff:203.0.113.7', ranges)).toBe(true);
		expect(isAllowed('203.0.113.8', ranges)).toBe(false);
		expect(isAllowed('198.51.100.255', ranges)).toBe(true);
		expect(isAllowed('::ffff:198.51.100.1', ranges)).toBe(true);
		expect(isAllowed('198.51.101.0', ranges)).toBe(false);
		expect(isAllowed('192.0.2.99', ranges)).toBe(true);
		expect(isAllowed('2001:db8:1::5', ranges)).toBe(true);
		expect(isAllowed('2001:db9::5', ranges)).toBe(false);
		expect(isAllowed('::1', ranges)).toBe(false);
		expect(isAllowed(undefined, ranges)).toBe(false);
		expect(isAllowed('not an address', ranges)).toBe(false);
	});

	test('invalid entries are reported, not ignored', () => {
		expect(parseAllowlist('10.0.0.1, 10.0.0.300, example.com').invalid).toEqual([
			'10.0.0.300',
			'example.com',
		]);
	});

	test('X-Forwarded-For: right-most entry, ports stripped', () => {
		expect(lastForwardedAddress('1.1.1.1, 203.0.113.7')).toBe('203.0.113.7');
		expect(lastForwardedAddress(['1.1.1.1', '203.0.113.7:4711'])).toBe('203.0.113.7');
		expect(lastForwardedAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
		expect(lastForwardedAddress(' , ')).toBeUndefined();
		expect(lastForwardedAddress(undefined)).toBeUndefined();
	});

	test('client address: the header is ignored unless trusted', () => {
		const request = {
			headers: { 'x-forwarded-for': '203.0.113.7' },
			ip: '::ffff:127.0.0.1',
			socket: { remoteAddress: '::ffff:127.0.0.1' },
		};
		expect(clientAddress(request, false)).toBe('::ffff:127.0.0.1');
		expect(clientAddress(request, true)).toBe('203.0.113.7');
		expect(clientAddress({ headers: {}, socket: { remoteAddress: '10.0.0.1' } }, true)).toBe(
			'10.0.0.1',
		);
	});
});
