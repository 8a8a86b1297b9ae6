package com.example.orders;

import java.util.List;

/**
 * Javadoc words stay hidden: hiddenJavadoc.
 */
@Service
public class OrderService {
    private static final int MAX_ORDERS_PER_DAY = 500;
    private final OrderRepository orderRepository;

    public OrderService(OrderRepository orderRepository) {
        this.orderRepository = orderRepository;
    }

    @Override
    public String describeOrder(long orderId) {
        var order = orderRepository.findById(orderId);
        char separator = ';';
        String template = """
            Order hiddenTextBlock %d
            """;
        return template.formatted(orderId) + separator + order.getCustomerName();
    }
}
