import { describe, expect, it } from 'vitest';
import { decodeStripeForm } from './fake-stripe.ts';

describe('decodeStripeForm', () => {
  it('reads nested objects and arrays the way the SDK encodes them', () => {
    const body =
      'mode=payment&line_items[0][price]=price_1&line_items[0][quantity]=1&metadata[userId]=u%201' +
      '&subscription_data[metadata][plan]=byok';
    expect(decodeStripeForm(body.replaceAll('[', '%5B').replaceAll(']', '%5D'))).toEqual({
      mode: 'payment',
      line_items: [{ price: 'price_1', quantity: '1' }],
      metadata: { userId: 'u 1' },
      subscription_data: { metadata: { plan: 'byok' } },
    });
  });
});
