#!/usr/bin/env node
// Checkout helpers (comment words: hiddenInComment)
const TAX_RATE = 0.2;
const skuPattern = /^[A-Z]{3}-\d+$/; // regex literal, not division
let itemCount = cart.length / 2 / unitsPerBox;

function formatPrice(amountCents, currencyCode = "EUR") {
  const label = `${currencyCode} ${(amountCents / 100).toFixed(2)} notInTemplateText`;
  return label.trim();
}

export default class CartView {
  constructor(items) {
    this.items = items.filter((item) => skuPattern.test(item.sku));
    this.class = 'not a keyword after a dot';
  }

  get totalCents() {
    return this.items.reduce((sum, item) => sum + item.priceCents, 0);
  }
}
