#include <vector>
#include <string>

namespace linalg {

// A dense row-major matrix.
template <typename T>
class Matrix {
public:
    Matrix(std::size_t rowCount, std::size_t colCount) : rows_(rowCount), cols_(colCount), data_(rowCount * colCount) {}

    T& at(std::size_t row, std::size_t col) { return data_[row * cols_ + col]; }

    std::string describe() const {
        return R"fmt(Matrix "hiddenRaw" (rows x cols))fmt";
    }

private:
    std::size_t rows_;
    std::size_t cols_;
    std::vector<T> data_;
};

constexpr long kMaxCells = 1'000'000;

}  // namespace linalg
