import type { OpenApiDocument } from './openapi';

/** A trimmed copy of the served /api/v1/openapi.json (two operations, some errors) for component tests; the real document is read at run time and checked against the docs in common/samples/docs.agree.test.ts and the enterprise e2e. */
export const OPENAPI_FIXTURE: OpenApiDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Sixdigit verification API",
    "version": "1.0.0",
    "description": "Prepaid TOTP (RFC 6238) enrolment and verification. ₹0.10 per verification that reaches the code check."
  },
  "servers": [
    {
      "url": "https://api.example.test/api/v1"
    }
  ],
  "paths": {
    "/profile": {
      "get": {
        "summary": "Your balance and limits",
        "tags": [
          "account"
        ],
        "security": [
          {
            "apiKey": []
          }
        ],
        "responses": {
          "200": {
            "description": "Default Response",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "properties": {
                    "business_id": {
                      "type": "string"
                    },
                    "company_name": {
                      "type": "string"
                    },
                    "balance": {
                      "type": "string"
                    },
                    "currency": {
                      "type": "string",
                      "enum": [
                        "INR"
                      ]
                    },
                    "verifications_left": {
                      "type": "integer",
                      "minimum": -9007199254740991,
                      "maximum": 9007199254740991
                    },
                    "rate_limit": {
                      "type": "object",
                      "properties": {
                        "requests_per_minute": {
                          "type": "integer",
                          "minimum": -9007199254740991,
                          "maximum": 9007199254740991
                        }
                      },
                      "required": [
                        "requests_per_minute"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "business_id",
                    "company_name",
                    "balance",
                    "currency",
                    "verifications_left",
                    "rate_limit"
                  ],
                  "additionalProperties": false
                }
              }
            }
          },
          "401": {
            "description": "Missing, invalid or revoked API key (unauthorized)",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/verify": {
      "post": {
        "summary": "Check a TOTP or backup code (₹0.10 per check that reaches the code)",
        "tags": [
          "verification"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "properties": {
                  "user_id": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "Your identifier for the end user (1–128 characters).",
                    "example": "user_42"
                  },
                  "totp_code": {
                    "type": "string",
                    "pattern": "^\\d{6,8}$"
                  },
                  "backup_code": {
                    "type": "string",
                    "minLength": 8,
                    "maxLength": 32
                  },
                  "secret": {
                    "description": "Stateless mode: the base32 secret you keep.",
                    "type": "string",
                    "maxLength": 256
                  },
                  "token": {
                    "type": "string",
                    "pattern": "^\\d{6,8}$"
                  },
                  "window": {
                    "description": "Steps accepted either side of now (default 1).",
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 10
                  },
                  "purpose": {
                    "description": "Free text kept with the record, e.g. \"login\" or \"payout\".",
                    "type": "string",
                    "maxLength": 100
                  }
                },
                "additionalProperties": false
              }
            }
          }
        },
        "parameters": [
          {
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 255
            },
            "in": "header",
            "name": "idempotency-key",
            "required": false
          }
        ],
        "security": [
          {
            "apiKey": []
          }
        ],
        "responses": {
          "200": {
            "description": "Default Response",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "properties": {
                    "verified": {
                      "type": "boolean"
                    },
                    "status": {
                      "type": "string",
                      "enum": [
                        "verified",
                        "invalid_code",
                        "expired",
                        "replayed"
                      ]
                    },
                    "verification_id": {
                      "type": "string"
                    },
                    "request_id": {
                      "type": "string"
                    },
                    "timestamp": {
                      "type": "string"
                    },
                    "cost": {
                      "type": "string",
                      "description": "Rupees charged, e.g. \"0.10\"."
                    },
                    "balance": {
                      "type": "string",
                      "description": "Rupees left after this check."
                    },
                    "backup_codes_left": {
                      "type": "integer",
                      "minimum": -9007199254740991,
                      "maximum": 9007199254740991
                    }
                  },
                  "required": [
                    "verified",
                    "status",
                    "verification_id",
                    "request_id",
                    "timestamp",
                    "cost",
                    "balance"
                  ],
                  "additionalProperties": false
                }
              }
            }
          },
          "401": {
            "description": "Missing, invalid or revoked API key (unauthorized)",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "402": {
            "description": "Balance below ₹0.10 (insufficient_credits); nothing recorded or charged",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "apiKey": {
        "type": "http",
        "scheme": "bearer",
        "description": "sk_live_… key from your dashboard"
      }
    },
    "schemas": {
      "ErrorInput": {
        "type": "object",
        "properties": {
          "error": {
            "type": "object",
            "properties": {
              "code": {
                "type": "string",
                "example": "validation_failed"
              },
              "message": {
                "type": "string"
              },
              "request_id": {
                "type": "string"
              }
            },
            "required": [
              "code",
              "message",
              "request_id"
            ]
          }
        },
        "required": [
          "error"
        ]
      },
      "Error": {
        "type": "object",
        "properties": {
          "error": {
            "type": "object",
            "properties": {
              "code": {
                "type": "string",
                "example": "validation_failed"
              },
              "message": {
                "type": "string"
              },
              "request_id": {
                "type": "string"
              }
            },
            "required": [
              "code",
              "message",
              "request_id"
            ],
            "additionalProperties": false
          }
        },
        "required": [
          "error"
        ],
        "additionalProperties": false
      }
    }
  }
};
