"""jiyi.write"""
