def solution(numbers):
    return sum(numbers)
