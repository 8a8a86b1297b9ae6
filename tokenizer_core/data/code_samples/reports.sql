-- Monthly revenue report per customer segment.
-- Runs nightly; results land in reporting.monthly_revenue.

CREATE TABLE IF NOT EXISTS reporting.monthly_revenue (
    report_month     DATE        NOT NULL,
    customer_segment VARCHAR(40) NOT NULL,
    order_count      INTEGER     NOT NULL DEFAULT 0,
    gross_revenue    NUMERIC(14, 2),
    "Net Revenue (EUR)" NUMERIC(14, 2),
    PRIMARY KEY (report_month, customer_segment)
);

/* Orders are counted once they are paid; refunds are
   subtracted in the month they happen, not the month of the order. */
WITH paid_orders AS (
    SELECT o.order_id,
           o.customer_id,
           date_trunc('month', o.paid_at)::date AS report_month,
           o.total_amount_cents / 100.0 AS gross_amount
    FROM sales.orders o
    WHERE o.status = 'paid'
      AND o.paid_at >= :start_date
),
refunds AS (
    SELECT r.order_id,
           date_trunc('month', r.refunded_at)::date AS report_month,
           SUM(r.amount_cents) / 100.0 AS refund_amount
    FROM sales.refunds r
    GROUP BY r.order_id, date_trunc('month', r.refunded_at)
)
INSERT INTO reporting.monthly_revenue
    (report_month, customer_segment, order_count, gross_revenue, "Net Revenue (EUR)")
SELECT p.report_month,
       COALESCE(c.segment_name, 'customer''s segment unknown') AS customer_segment,
       COUNT(DISTINCT p.order_id),
       SUM(p.gross_amount),
       SUM(p.gross_amount) - COALESCE(SUM(rf.refund_amount), 0)
FROM paid_orders p
JOIN crm.customers c ON c.customer_id = p.customer_id
LEFT JOIN refunds rf ON rf.order_id = p.order_id AND rf.report_month = p.report_month
GROUP BY p.report_month, COALESCE(c.segment_name, 'customer''s segment unknown')
ON CONFLICT (report_month, customer_segment) DO NOTHING;
