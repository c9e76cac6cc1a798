import { isSecretKey, withSignaturesMasked } from './secrets';

/** An absolute http(s) URL as written: "//" and a host right after the scheme (http:/x is not one). */
export const ABSOLUTE_HTTP_URL = /^https?:\/\/[^/\\?#\s]/i;

function decodedName(name: string): string {
	try {
		return decodeURIComponent(name);
	} catch {
		return name;
	}
}

/**
 * A URL (or text holding one) as a message may show it: the user name and password before the host
 * (a token may stand there alone) and the values of secret query parameters (?secret=…, &subToken=…,
 * &sig=…, also percent-encoded) replaced by ***.
 */
export function withUrlSecretsMasked(text: string): string {
	return withSignaturesMasked(text)
		.replace(/([?&#;]([^=&#;\s]*)=)[^&#;\s]*/g, (whole, prefix: string, name: string) =>
			isSecretKey(decodedName(name)) ? `${prefix}***` : whole,
		)
		.replace(/([a-z][\w+.-]*:[/\\]*)[^/\\@\s]*@/gi, '$1***@');
}
