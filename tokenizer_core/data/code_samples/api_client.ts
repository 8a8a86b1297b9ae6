// Typed client for the orders API, with retries and response validation.
import { EventEmitter } from "events";

export type OrderStatus = "pending" | "paid" | "shipped" | "cancelled";

export interface OrderLine {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Order {
  id: string;
  customerId: string;
  status: OrderStatus;
  lines: OrderLine[];
  createdAt: Date;
}

enum HttpMethod {
  GET = "GET",
  POST = "POST",
}

const MAX_RETRY_COUNT = 3;
const ORDER_ID_PATTERN = /^ord_[a-z0-9]{12}$/i;

/** Raised for any non-2xx answer. */
export class ApiError extends Error {
  constructor(public readonly statusCode: number, message: string) {
    super(message);
  }
}

export function parseHTTPResponse2xx<T>(response: { status: number; body: unknown }): T {
  if (response.status < 200 || response.status >= 300) {
    throw new ApiError(response.status, `unexpected status ${response.status}`);
  }
  return response.body as T;
}

export class OrdersClient extends EventEmitter {
  private readonly baseUrl: string;
  private retryDelayMs = 250;

  constructor(baseUrl: string, private apiKey: string) {
    super();
    this.baseUrl = baseUrl.replace(/\/+$/, "");
  }

  async getOrderById(orderId: string): Promise<Order> {
    if (!ORDER_ID_PATTERN.test(orderId)) {
      throw new ApiError(400, `malformed order id: ${orderId}`);
    }
    const url = `${this.baseUrl}/orders/${encodeURIComponent(orderId)}`;
    return this.request<Order>(HttpMethod.GET, url);
  }

  orderTotalCents(order: Order): number {
    return order.lines.reduce((sum, line) => sum + line.quantity * line.unitPriceCents, 0);
  }

  private async request<T>(method: HttpMethod, url: string, attempt = 1): Promise<T> {
    const res = await fetch(url, { method, headers: { Authorization: `Bearer ${this.apiKey}` } });
    if (res.status >= 500 && attempt < MAX_RETRY_COUNT) {
      await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * attempt));
      this.emit("retry", { url, attempt });
      return this.request<T>(method, url, attempt + 1);
    }
    return parseHTTPResponse2xx<T>({ status: res.status, body: await res.json() });
  }
}
