"""jiyi.maintain"""
