"""jiyi.eval"""
