SELECT customer_id, first_name
FROM customers
WHERE note = 'it''s never closed;
SELECT hidden_column FROM hidden_table;
