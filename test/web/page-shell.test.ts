/**
 * The site header of every page (gateway/web/page-shell.ts) names who is reading: a subscriber, a
 * person signed in to an API-plan account, or nobody.
 */
import { describe, expect, it } from 'vitest';
import { renderShell } from '../../gateway/web/page-shell.js';

const base = { title: 'Subnets', manifest: null, body: '<h1>Subnets</h1>' };

describe('the site header', () => {
  it('to nobody: the subscribers\' sign-in hint and "Sign in"', () => {
    const html = renderShell({ ...base, access: 'public', account: 'signed-out' });
    expect(html).toContain('Subscribers: use your sign-in link');
    expect(html).toContain('<a href="/account">Sign in</a>');
  });

  it('to a person signed in to an API-plan account: what they are signed in as, not the hint', () => {
    const html = renderShell({ ...base, access: 'public', account: 'signed-in' });
    expect(html).toContain('Signed in: API plan account');
    expect(html).not.toContain('use your sign-in link');
    expect(html).toContain('<a href="/account">Account</a>');
  });

  it('to a subscriber: the badge and sign-out, whatever the account cookie', () => {
    for (const account of ['signed-in', 'signed-out'] as const) {
      const html = renderShell({ ...base, access: 'subscriber', account });
      expect(html).toContain('<span class="badge">Subscriber</span>');
      expect(html).not.toContain('use your sign-in link');
      expect(html).not.toContain('Signed in: API plan account');
    }
  });
});
