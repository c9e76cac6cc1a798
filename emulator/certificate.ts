import { generate } from 'selfsigned';

/** A throw-away certificate for 127.0.0.1, made at start-up; clients must skip verification. */
export function selfSignedCertificate(): { key: string; cert: string } {
	const pems = generate([{ name: 'commonName', value: '127.0.0.1' }], {
		days: 7,
		keySize: 2048,
		extensions: [
			{
				name: 'subjectAltName',
				altNames: [
					{ type: 7, ip: '127.0.0.1' },
					{ type: 2, value: 'localhost' },
				],
			},
		],
	});
	return { key: pems.private, cert: pems.cert };
}
