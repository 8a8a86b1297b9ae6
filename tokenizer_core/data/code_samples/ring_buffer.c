#include <stdio.h>
#include "ring_buffer.h"

#define RING_CAPACITY 64 /* must be a power of two */

typedef struct {
    unsigned char data[RING_CAPACITY];
    size_t head_index;
    size_t tail_index;
} RingBuffer;

// push one byte; returns 0 when full (hiddenLineComment)
int ring_push(RingBuffer *rb, unsigned char byte_value) {
    size_t next = (rb->head_index + 1) & (RING_CAPACITY - 1);
    if (next == rb->tail_index) {
        fprintf(stderr, "ring full: hiddenString\n");
        return 0;
    }
    rb->data[rb->head_index] = byte_value;
    rb->head_index = next;
    return '\n' != 0;
}
